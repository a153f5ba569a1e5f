package io.ringwatch.server;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.server.kv.EtcdLimits;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code ringwatch-server}: opens an engine (in memory, or over the revision log in
 * {@code --data-dir}) and serves it to etcd v3 clients. Takes etcd's own flags for what the two
 * share, so a script written for a single etcd member starts it unchanged, plus RingWatch's
 * durability and window. On SIGTERM (or Ctrl-C) a shutdown hook stops the server, then closes
 * the engine, which makes every acknowledged write durable, and ends every watch and lease
 * keep-alive stream with UNAVAILABLE; the JVM then exits with 143, its status for SIGTERM (the main
 * thread returns normally, never calling {@code System.exit}): {@code SigtermTest} (puts and
 * watches), {@code SigtermMixedOpsTest} (transactions, deletes and leases, plaintext and TLS).
 * Runs on the main thread until then.
 * Netty's buffer leak detector is off unless its level is given ({@link LeakDetection}).
 */
@Command(name = "ringwatch-server", mixinStandardHelpOptions = true, version = "ringwatch-server 0.1.0",
    description = "Serves a RingWatch engine over etcd's v3 gRPC API (KV, Watch, Maintenance status, Cluster member list).")
public final class ServerMain implements Callable<Integer>
{
    /** etcd's default progress notify interval (v3rpc watch.go {@code progressReportInterval}). */
    static final Duration DEFAULT_WATCH_PROGRESS_NOTIFY_INTERVAL = Duration.ofMinutes(10);
    /** etcd's shortest (v3rpc watch.go {@code minWatchProgressInterval}): a shorter one is raised to it. */
    static final Duration MIN_WATCH_PROGRESS_NOTIFY_INTERVAL = Duration.ofMillis(100);
    private static final Logger LOG = LoggerFactory.getLogger(ServerMain.class);

    @Option(names = "--name", description = "Member name (etcd's --name). Default: ${DEFAULT-VALUE}.")
    String name = ServerOptions.DEFAULT_NAME;

    @Option(names = "--data-dir", description = "Directory of the revision log; absent: in memory, nothing survives a restart.")
    Path dataDir;

    @Option(names = "--listen-client-urls", split = ",", description = "Comma-separated http://host:port URLs to listen on. Default: ${DEFAULT-VALUE}.")
    List<URI> listenClientUrls = List.of(URI.create(ServerOptions.DEFAULT_CLIENT_URL));

    @Option(names = "--advertise-client-urls", split = ",", description = "Comma-separated URLs clients are told to use. Default: the listen URLs.")
    List<URI> advertiseClientUrls = List.of();

    @Option(names = "--cert-file", description = "TLS certificate (PEM) for https:// listen URLs (etcd's --cert-file).")
    Path certFile;

    @Option(names = "--key-file", description = "The certificate's private key (PEM, PKCS#8) (etcd's --key-file).")
    Path keyFile;

    @Option(names = "--trusted-ca-file", description = "CA certificates (PEM) client certificates must chain to (etcd's --trusted-ca-file).")
    Path trustedCaFile;

    @Option(names = "--client-cert-auth", description = "Refuse clients without a certificate from the trusted CA (etcd's --client-cert-auth).")
    boolean clientCertAuth;

    @Option(names = "--durability", description = "With --data-dir: SYNC acknowledges a write once on disk (as etcd's fsync'd WAL), ASYNC once applied. Default: ${DEFAULT-VALUE}.")
    LogConfig.Durability durability = LogConfig.Durability.SYNC;

    @Option(names = "--window-min", description = "Watch window's smallest capacity in events, a power of two. Default: the engine's.")
    Integer windowMin;

    @Option(names = "--window-max", description = "Watch window's largest capacity in events, a power of two. Default: the engine's.")
    Integer windowMax;

    @Option(names = {"--experimental-watch-progress-notify-interval", "--watch-progress-notify-interval"},
        converter = GoDuration.class,
        description = "How often a watch created with progress_notify that got no event meanwhile is sent a progress notification (etcd 3.5's flag, 3.6's name; a Go duration; below 100ms: 100ms, as etcd). Default: 10m, as etcd.")
    Duration watchProgressNotifyInterval = DEFAULT_WATCH_PROGRESS_NOTIFY_INTERVAL;

    @Option(names = "--max-request-bytes", description = "etcd's flag: the largest write (its raft request) in bytes; gRPC takes messages up to it plus 512 KiB, the engine values up to it (at most 64 MiB), and a fragment watch's fragments stay below it plus 512 KiB. Default: ${DEFAULT-VALUE}.")
    int maxRequestBytes = EtcdLimits.MAX_REQUEST_BYTES;

    @Option(names = "--max-txn-ops", description = "etcd's flag: the most operations in each list of a transaction. Default: ${DEFAULT-VALUE}.")
    int maxTxnOps = EtcdLimits.MAX_TXN_OPS;

    @Option(names = "--write-admission", negatable = true,
        description = "Hold writes while a reading client's watches are more than half the watch window behind, so they lag instead of being cancelled as compacted (--no-write-admission: never hold). Default: on in memory, off with --data-dir (lagging watches catch up from the log).")
    Boolean writeAdmission;

    @Option(names = "--watch-pumps", description = "Threads that send the watch streams' responses, each stream on one of them (given in turn as streams open). Default: a quarter of the cores, 1 to 8.")
    Integer watchPumps;

    ServerMain()
    {
    }

    /**
     * Runs the server; returns (with exit code 2 for a bad command line) only when it fails to start,
     * else it serves until the JVM is asked to stop.
     *
     * @param args the command line.
     */
    public static void main(final String[] args)
    {
        LeakDetection.applyDefault();
        final int exitCode = commandLine().execute(args);
        if (exitCode != 0)
        {
            System.exit(exitCode);
        }
    }

    /**
     * The command line of {@code ringwatch-server}: a setting out of range (refused by the options'
     * or the engine's builder with an {@link IllegalArgumentException}, before anything opens) is a
     * usage error, one line on standard error and exit code 2, as a malformed flag is; any other
     * failure to start keeps its stack trace. The calling thread; allocates the parser.
     *
     * @return the parser, ready to execute.
     */
    static CommandLine commandLine()
    {
        final CommandLine commandLine = new CommandLine(new ServerMain());
        commandLine.setExecutionExceptionHandler((e, cmd, parsed) ->
        {
            if (e instanceof IllegalArgumentException)
            {
                cmd.getErr().println(cmd.getCommandName() + ": " + e.getMessage());
                return CommandLine.ExitCode.USAGE;
            }
            throw e;
        });
        return commandLine;
    }

    /**
     * Opens the engine, starts the server and serves until the JVM stops.
     *
     * @return 0 once the server has stopped.
     * @throws InterruptedException if interrupted while serving.
     */
    @Override
    public Integer call() throws InterruptedException
    {
        final ServerOptions.Builder options = ServerOptions.builder().name(name);
        listenClientUrls.forEach(options::listenClientUrl);
        advertiseClientUrls.forEach(options::advertiseClientUrl);
        if (certFile != null || keyFile != null)
        {
            options.tls(certFile, keyFile);
        }
        options.trustedCaFile(trustedCaFile).clientCertAuth(clientCertAuth).maxRequestBytes(maxRequestBytes).maxTxnOps(maxTxnOps);
        if (writeAdmission != null)
        {
            options.writeAdmission(writeAdmission);
        }
        if (watchPumps != null)
        {
            options.watchPumps(watchPumps);
        }
        final ServerOptions serverOptions = options.build();
        final RingWatch engine = RingWatch.open(engineConfig());
        final RingWatchServer server;
        try
        {
            server = RingWatchServer.start(engine, serverOptions);
        }
        catch (final RuntimeException e)
        {
            engine.close();
            throw e;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() ->
        {
            LOG.info("{}: stopping", name);
            server.close();
            engine.close();
        }, name + "-shutdown"));
        server.awaitTermination();
        return 0;
    }

    /**
     * @return the engine's settings the command line asks for.
     */
    RingWatchConfig engineConfig()
    {
        final RingWatchConfig.Builder builder = EtcdLimits.applyTo(RingWatchConfig.builder().name(name), maxRequestBytes);
        if (watchProgressNotifyInterval.compareTo(MIN_WATCH_PROGRESS_NOTIFY_INTERVAL) < 0)
        {
            LOG.warn("adjusting watch progress notify interval to its minimum, {}", MIN_WATCH_PROGRESS_NOTIFY_INTERVAL);
            watchProgressNotifyInterval = MIN_WATCH_PROGRESS_NOTIFY_INTERVAL;
        }
        builder.progressNotifyInterval(watchProgressNotifyInterval);
        if (dataDir != null)
        {
            builder.persistence(LogConfig.builder(dataDir).durability(durability).build());
        }
        if (windowMin != null || windowMax != null)
        {
            final RingWatchConfig defaults = RingWatchConfig.defaults();
            builder.windowCapacity(windowMin != null ? windowMin : defaults.windowMinCapacity(),
                windowMax != null ? windowMax : defaults.windowMaxCapacity());
        }
        return builder.build();
    }
}
