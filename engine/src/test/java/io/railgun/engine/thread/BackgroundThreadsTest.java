package io.railgun.engine.thread;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

class BackgroundThreadsTest {
    private static final Path SELF = Path.of("/proc/thread-self/stat");

    /** The calling thread's nice value, as the kernel reports it (field 19 of its stat line). */
    private static int niceOfThisThread() {
        try {
            String stat = Files.readString(SELF);
            String[] after = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Integer.parseInt(after[16]);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void threadsOfTheFactoryRunFiveNiceStepsBelowTheirStarterWhichKeepsItsOwn() throws Exception {
        assumeTrue(Files.isReadable(SELF), "Linux only: per-thread nice values in /proc");
        int mine = niceOfThisThread();
        assumeTrue(mine < 19, "no lower priority to go to");
        ExecutorService background = Executors.newSingleThreadExecutor(BackgroundThreads.factory("test-background"));
        try {
            CompletableFuture<Integer> nice = CompletableFuture.supplyAsync(BackgroundThreadsTest::niceOfThisThread, background);
            CompletableFuture<String> name = CompletableFuture.supplyAsync(() -> Thread.currentThread().getName(), background);
            CompletableFuture<Boolean> daemon = CompletableFuture.supplyAsync(() -> Thread.currentThread().isDaemon(), background);
            // relative to the thread that started it: under "nice -n 10" it goes to 15, not back to 5
            assertThat(nice.get()).isEqualTo(Math.min(19, mine + BackgroundThreads.STEPS));
            assertThat(name.get()).isEqualTo("test-background");
            assertThat(daemon.get()).isTrue();
        } finally {
            background.shutdownNow();
        }
        assertThat(niceOfThisThread()).as("the caller's own priority is untouched").isEqualTo(mine);
    }

    @Test
    void threadsAnEventMayWaitForKeepTheirStartersPriority() throws Exception {
        assumeTrue(Files.isReadable(SELF), "Linux only: per-thread nice values in /proc");
        int mine = niceOfThisThread();
        ExecutorService prompt = Executors.newSingleThreadExecutor(BackgroundThreads.promptFactory("test-prompt"));
        try {
            CompletableFuture<Integer> nice = CompletableFuture.supplyAsync(BackgroundThreadsTest::niceOfThisThread, prompt);
            CompletableFuture<Boolean> daemon = CompletableFuture.supplyAsync(() -> Thread.currentThread().isDaemon(), prompt);
            assertThat(nice.get()).isEqualTo(mine);
            assertThat(daemon.get()).isTrue();
        } finally {
            prompt.shutdownNow();
        }
    }
}
