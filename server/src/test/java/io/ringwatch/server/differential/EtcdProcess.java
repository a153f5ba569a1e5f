package io.ringwatch.server.differential;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A throw-away single-node etcd on free loopback ports, with its own data directory, started
 * from the {@code etcd} on the PATH (Debian's {@code etcd-server}, 3.4) and killed, its directory
 * deleted, on close. Not thread-safe; one per run.
 */
final class EtcdProcess implements AutoCloseable
{
    private final Process process;
    private final Path dataDir;
    private final Path log;
    final int clientPort;

    private EtcdProcess(final Process process, final Path dataDir, final Path log, final int clientPort)
    {
        this.process = process;
        this.dataDir = dataDir;
        this.log = log;
        this.clientPort = clientPort;
    }

    /**
     * @return the etcd binary on the PATH, if any.
     */
    static Optional<Path> binary()
    {
        final String path = System.getenv().getOrDefault("PATH", "");
        return Stream.of(path.split(File.pathSeparator)).map(dir -> Path.of(dir, "etcd"))
            .filter(Files::isExecutable).findFirst();
    }

    /**
     * Starts etcd and returns once its client port accepts connections (the caller then waits for
     * a leader by retrying its first call).
     *
     * @param binary the etcd binary.
     * @return the running etcd.
     * @throws IOException if it cannot be started or does not listen within 20 s.
     */
    static EtcdProcess start(final Path binary) throws IOException, InterruptedException
    {
        // On tmpfs where there is one: etcd fsyncs every write, which the comparison does not need.
        final Path shm = Path.of("/dev/shm");
        final Path dataDir = Files.isDirectory(shm) && Files.isWritable(shm) ?
            Files.createTempDirectory(shm, "ringwatch-diff-etcd") : Files.createTempDirectory("ringwatch-diff-etcd");
        final int client = freePort();
        final int peer = freePort();
        final String clientUrl = "http://127.0.0.1:" + client;
        final String peerUrl = "http://127.0.0.1:" + peer;
        final Path log = dataDir.resolve("etcd.log");
        final Process process = new ProcessBuilder(List.of(binary.toString(), "--name", "diff",
            "--data-dir", dataDir.resolve("data").toString(),
            "--listen-client-urls", clientUrl, "--advertise-client-urls", clientUrl,
            "--listen-peer-urls", peerUrl, "--initial-advertise-peer-urls", peerUrl,
            "--initial-cluster", "diff=" + peerUrl))
            .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        // A test JVM that dies without closing it leaves no etcd behind.
        Runtime.getRuntime().addShutdownHook(new Thread(process::destroyForcibly, "diff-etcd-reaper"));
        final EtcdProcess etcd = new EtcdProcess(process, dataDir, log, client);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline)
        {
            if (!process.isAlive())
            {
                final String out = Files.readString(log);
                etcd.close();
                throw new IOException("etcd exited: " + out);
            }
            try (var socket = new java.net.Socket("127.0.0.1", client))
            {
                return etcd;
            }
            catch (final IOException notYet)
            {
                Thread.sleep(50);
            }
        }
        etcd.close();
        throw new IOException("etcd did not listen on " + clientUrl + " within 20 s");
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }

    /**
     * @return etcd's output so far.
     */
    String log()
    {
        try
        {
            return Files.readString(log);
        }
        catch (final IOException e)
        {
            return "(no log: " + e + ")";
        }
    }

    @Override
    public void close() throws InterruptedException
    {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS))
        {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        try (Stream<Path> files = Files.walk(dataDir))
        {
            files.sorted(Comparator.reverseOrder()).forEach(file -> file.toFile().delete());
        }
        catch (final IOException ignored)
        {
            // a temporary directory left behind is harmless
        }
    }
}
