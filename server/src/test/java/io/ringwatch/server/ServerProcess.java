package io.ringwatch.server;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.ringwatch.engine.internal.durable.ChildJvm;

/**
 * A {@link ServerMain} in a child JVM, for tests that signal or kill a real server process: starts
 * it with its output in a log file, waits until it listens, and picks a free loopback port for it.
 * Test thread only.
 */
final class ServerProcess
{
    /** The exit status of a JVM ended by SIGTERM (128 + the signal's number). */
    static final int SIGTERM_EXIT_STATUS = 128 + 15;
    /** A liveness bound: a child JVM has taken over 30 s to start on the shared 2-core VM at load 16. */
    private static final long START_BOUND_SECONDS = 120;

    private ServerProcess()
    {
    }

    /**
     * Starts {@code ServerMain} with {@code arguments} (heap 512 MiB), its stdout and stderr into
     * {@code log}; the test JVM's {@value ServerOptions#WATCH_PUMPS_PROPERTY}, if set, goes to the
     * child too, so a suite run with it serves these servers from as many pumps.
     *
     * @param arguments the server's command line.
     * @param log       the file its output goes to.
     * @return the child process.
     * @throws IOException if it cannot start.
     */
    static Process start(final List<String> arguments, final Path log) throws IOException
    {
        final List<String> jvm = new ArrayList<>(List.of("-Xmx512m"));
        final String pumps = System.getProperty(ServerOptions.WATCH_PUMPS_PROPERTY);
        if (pumps != null)
        {
            jvm.add("-D" + ServerOptions.WATCH_PUMPS_PROPERTY + "=" + pumps);
        }
        return new ProcessBuilder(ChildJvm.command(jvm, ServerMain.class, arguments.toArray(String[]::new)))
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    /**
     * Waits until the server's log says it serves clients; fails if it exits first or does not
     * listen within the liveness bound.
     *
     * @param server the child process.
     * @param log    its output.
     * @throws Exception if interrupted or the log cannot be read.
     */
    static void awaitListening(final Process server, final Path log) throws Exception
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_BOUND_SECONDS);
        while (System.nanoTime() < deadline)
        {
            assertTrue(server.isAlive(), "the server exited at start; see " + log);
            if (Files.readString(log, StandardCharsets.UTF_8).contains("serving etcd v3 clients"))
            {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the server did not listen within " + START_BOUND_SECONDS + " s; see " + log);
    }

    /**
     * @return a loopback port free at the time of the call.
     * @throws IOException if no socket can be bound.
     */
    static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
    }
}
