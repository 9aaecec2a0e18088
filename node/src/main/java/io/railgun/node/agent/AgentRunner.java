package io.railgun.node.agent;

import java.time.Duration;
import org.apache.kafka.common.errors.WakeupException;

/**
 * Runs one {@link Agent} on a platform thread of its own: {@code onStart}, {@code doWork} while
 * running (sleeping {@code idleSleep} after a round that did nothing, when the agent asks for it),
 * {@code onClose}. {@link #stop} asks it to stop (flag + {@link Agent#wake}); {@link #close} also
 * waits for the thread. A node stops all its agents first, then waits for each, so they stop
 * together. {@code start}, {@code stop} and {@code close} may be called from any thread.
 */
public final class AgentRunner implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(AgentRunner.class.getName());

    private final Agent agent;
    private final Thread thread;
    private final long idleSleepMs;
    private final Duration joinTimeout;
    private volatile boolean running = true;

    /**
     * @param idleSleep   how long to sleep after a round that did no work (zero: the agent blocks in
     *                    {@code doWork} itself, e.g. in a Kafka poll)
     * @param joinTimeout how long {@link #close} waits for the thread
     * @param daemon      whether the thread lets the JVM exit without it
     */
    public AgentRunner(Agent agent, Duration idleSleep, Duration joinTimeout, boolean daemon) {
        this.agent = agent;
        this.idleSleepMs = idleSleep.toMillis();
        this.joinTimeout = joinTimeout;
        this.thread = Thread.ofPlatform().name(agent.roleName()).daemon(daemon).unstarted(this::run);
    }

    public AgentRunner start() {
        thread.start();
        return this;
    }

    /** Whether the agent's loop has not been asked to stop. */
    public boolean isRunning() {
        return running;
    }

    private void run() {
        try {
            agent.onStart();
            while (running) {
                int work = agent.doWork();
                if (work == 0 && idleSleepMs > 0 && running) {
                    Thread.sleep(idleSleepMs);
                }
            }
        } catch (WakeupException | InterruptedException | Agent.AgentStopped e) {
            // asked to stop
        } catch (Exception | StackOverflowError e) {
            LOG.log(System.Logger.Level.ERROR, agent.roleName() + " stopped", e);
        } finally {
            running = false;
            try {
                agent.onClose();
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, agent.roleName() + " did not close cleanly", e);
            }
        }
    }

    /** Asks the agent to stop, without waiting. */
    public void stop() {
        running = false;
        agent.wake();
    }

    /** Stops the agent and waits for its thread (at most the join timeout). */
    @Override
    public void close() {
        stop();
        if (Thread.currentThread() == thread) {
            return;
        }
        try {
            thread.join(joinTimeout.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
