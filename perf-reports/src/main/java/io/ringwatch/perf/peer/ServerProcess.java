package io.ringwatch.perf.peer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A RingWatch etcd-compatible server in a process of its own, started with its start script
 * ({@code server/ringwatch-server}) on a free loopback port, as etcd runs beside the harness: the
 * server does not share the harness's heap, GC or JIT. Stopped with SIGTERM, as an operator would
 * (the server then closes its engine). Called from the harness's main thread; allocates.
 */
public final class ServerProcess implements AutoCloseable
{
    private static final long START_TIMEOUT_MILLIS = 30_000;
    private static final long STOP_TIMEOUT_SECONDS = 15;
    private static final int CONNECT_TIMEOUT_MILLIS = 200;

    private final Process process;
    private final String endpoint;
    private final Path log;

    private ServerProcess(final Process process, final String endpoint, final Path log)
    {
        this.process = process;
        this.endpoint = endpoint;
        this.log = log;
    }

    /**
     * Starts the server and waits until its port accepts connections.
     *
     * @param script      the start script, e.g. {@code server/ringwatch-server}.
     * @param persistence the durability; {@link Persistence#NONE} runs it in memory.
     * @param dataDir     its revision log (fresh per run); ignored in memory.
     * @return the running server.
     * @throws IllegalStateException if the script is missing, or the server exits or does not
     *                               listen within 30 s (its log says why).
     */
    public static ServerProcess start(final Path script, final Persistence persistence, final Path dataDir)
    {
        if (!Files.isExecutable(script))
        {
            throw new IllegalStateException("no ringwatch-server start script at " + script.toAbsolutePath() +
                " (run from the repository root after mvn -pl server -am package, or pass --server-script)");
        }
        final int port = freePort();
        final String endpoint = "http://127.0.0.1:" + port;
        final List<String> command = new ArrayList<>(List.of(script.toString(), "--name", "ringwatch-perf",
            "--listen-client-urls", endpoint));
        if (persistence != Persistence.NONE)
        {
            command.addAll(List.of("--data-dir", dataDir.toString(), "--durability", persistence.name()));
        }
        try
        {
            final Path log = Files.createTempFile("ringwatch-server-", ".log");
            final ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile());
            // The server runs on the JDK that runs the harness, so both are measured on the same one.
            ProcessHandle.current().info().command().ifPresent(java -> builder.environment().put("JAVA", java));
            final ServerProcess server = new ServerProcess(builder.start(), endpoint, log);
            server.awaitListening(port);
            return server;
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException("cannot start " + command + ": " + e.getMessage(), e);
        }
    }

    /**
     * @return the client URL, {@code http://127.0.0.1:<port>}.
     */
    public String endpoint()
    {
        return endpoint;
    }

    /**
     * @return the server's combined stdout and stderr.
     */
    public Path log()
    {
        return log;
    }

    /**
     * Sends SIGTERM and waits up to 15 s for the process to exit, then kills it.
     */
    @Override
    public void close()
    {
        process.destroy();
        try
        {
            if (!process.waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS))
            {
                process.destroyForcibly().waitFor(STOP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
        }
        catch (final InterruptedException e)
        {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    private void awaitListening(final int port)
    {
        final long deadline = System.currentTimeMillis() + START_TIMEOUT_MILLIS;
        while (System.currentTimeMillis() < deadline)
        {
            if (!process.isAlive())
            {
                throw new IllegalStateException("ringwatch-server exited with " + process.exitValue() + "; see " + log);
            }
            try (Socket socket = new Socket())
            {
                socket.connect(new InetSocketAddress("127.0.0.1", port), CONNECT_TIMEOUT_MILLIS);
                return;
            }
            catch (final IOException notYet)
            {
                sleepBriefly();
            }
        }
        close();
        throw new IllegalStateException("ringwatch-server did not listen on " + endpoint + " within " +
            START_TIMEOUT_MILLIS / 1000 + " s; see " + log);
    }

    private static void sleepBriefly()
    {
        try
        {
            Thread.sleep(50);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting ringwatch-server", e);
        }
    }

    /** A port free now; another process could take it before the server binds it, which start reports. */
    private static int freePort()
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress()))
        {
            return socket.getLocalPort();
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException("no free loopback port: " + e.getMessage(), e);
        }
    }
}
