package io.railgun.bench.e2e;

import io.railgun.node.Node;
import io.railgun.node.NodeConfig;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Path;

/**
 * A node in the injector's JVM ({@link Node#start}: embedded broker, HTTP on a free port of
 * 127.0.0.1): the simplest set-up, but the node shares the heap, the GC and the JIT with the
 * injector, so an injector GC pause delays replies and the other way round.
 */
final class InProcessNode implements NodeUnderTest {
    private final Node node;
    private final Path dataDir;

    private InProcessNode(Node node, Path dataDir) {
        this.node = node;
        this.dataDir = dataDir;
    }

    static InProcessNode start(Path dataDir, int processors) {
        NodeConfig config = NodeConfig.defaults().withDataDir(dataDir).withHttp("127.0.0.1", 0);
        if (processors > 0) {
            config = config.withProcessors(processors);
        }
        try {
            return new InProcessNode(Node.start(config), dataDir);
        } catch (RuntimeException e) {
            NodeUnderTest.deleteTree(dataDir);
            throw e;
        }
    }

    @Override
    public URI uri() {
        return node.uri();
    }

    @Override
    public String describe() {
        return "in-process node (data " + dataDir + ")";
    }

    @Override
    public long cpuNanos() {
        return -1;
    }

    @Override
    public long pid() {
        return ManagementFactory.getRuntimeMXBean().getPid();
    }

    @Override
    public boolean inProcess() {
        return true;
    }

    @Override
    public void close() {
        node.close();
        NodeUnderTest.deleteTree(dataDir);
    }
}
