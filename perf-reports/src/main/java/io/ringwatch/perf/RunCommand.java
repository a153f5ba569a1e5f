package io.ringwatch.perf;

import io.ringwatch.perf.load.HeapSettle;
import io.ringwatch.perf.load.LoadRun;
import io.ringwatch.perf.load.LoadSettings;
import io.ringwatch.perf.load.Peer;
import io.ringwatch.perf.load.ProducerWait;
import io.ringwatch.perf.load.Workload;
import io.ringwatch.perf.peer.DisruptorFloorPeer;
import io.ringwatch.perf.peer.EngineSettings;
import io.ringwatch.perf.peer.EtcdClientKind;
import io.ringwatch.perf.peer.EtcdClientSettings;
import io.ringwatch.perf.peer.EtcdPeer;
import io.ringwatch.perf.peer.LockedBroadcastPeer;
import io.ringwatch.perf.peer.Persistence;
import io.ringwatch.perf.peer.RingWatchPeer;
import io.ringwatch.perf.peer.RingWatchServerPeer;
import io.ringwatch.perf.peer.ThreadIdle;
import io.ringwatch.perf.peer.WriteMode;
import io.ringwatch.perf.peer.WriterWait;
import io.ringwatch.perf.report.MachineInfo;
import io.ringwatch.perf.report.PeerResult;
import io.ringwatch.perf.report.ReportIndex;
import io.ringwatch.perf.report.ReportWriter;
import io.ringwatch.perf.report.RunReport;
import io.ringwatch.perf.report.Spread;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * The default command: drives each {@code --engine} in turn with the same fixed-rate workload and
 * writes one report directory holding all of them, then rewrites the reports index.
 */
@Command(name = "ringwatch-perf", mixinStandardHelpOptions = true, sortOptions = false,
    subcommands = IndexCommand.class,
    description = {"End-to-end latency harness: fixed-rate writes, watchers on prefixes, coordinated-omission-correct",
        "write-to-listener and write-ack latency in HdrHistogram, an HTML/text report per run."})
final class RunCommand implements Callable<Integer>
{
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC);

    @Option(names = "--engine", split = ",", paramLabel = "ringwatch|disruptor|juc|etcd|ringwatch-server",
        description = "peers to drive, one after another (comma list). Default: ${DEFAULT-VALUE}")
    private List<PeerKind> engines = new ArrayList<>(List.of(PeerKind.RINGWATCH));

    @Option(names = "--rate", description = "writes per second (all producers). Default: ${DEFAULT-VALUE}")
    private long rate = 200_000;

    @Option(names = "--saturate", description = "a closed loop instead of --rate: each producer sends as soon as the " +
        "peer takes the write (etcd and ringwatch-server: --etcd-max-in-flight outstanding), for the most writes/s a " +
        "peer sustains; latency then counts from the actual send")
    private boolean saturate;

    @Option(names = "--duration", description = "measured time, e.g. 40s. Default: ${DEFAULT-VALUE}")
    private Duration duration = Duration.ofSeconds(40);

    @Option(names = "--warmup", description = "unmeasured time first. Default: ${DEFAULT-VALUE}")
    private Duration warmup = Duration.ofSeconds(10);

    @Option(names = "--keys", description = "distinct keys, written round-robin. Default: ${DEFAULT-VALUE}")
    private int keys = 10_000;

    @Option(names = "--key-size", description = "bytes per key. Default: ${DEFAULT-VALUE}")
    private int keySize = 32;

    @Option(names = "--value-size", description = "bytes per value (>= 8: the intended send time). Default: ${DEFAULT-VALUE}")
    private int valueSize = 64;

    @Option(names = "--watchers", description = "watchers, on watchers/fanout prefixes. Default: ${DEFAULT-VALUE}")
    private int watchers = 1_000;

    @Option(names = "--fanout", description = "watchers each write reaches. Default: ${DEFAULT-VALUE}")
    private int fanout = 1;

    @Option(names = "--pull-watchers", description = "how many of the watchers pull (ringwatch only). Default: ${DEFAULT-VALUE}")
    private int pullWatchers = 0;

    @Option(names = "--pollers", description = "threads draining pull watchers. Default: ${DEFAULT-VALUE}")
    private int pollers = 1;

    @Option(names = "--producers", description = "producer threads. Default: ${DEFAULT-VALUE}")
    private int producers = 1;

    @Option(names = "--producer-wait", description = "spin | yield | park | park-yield. Default: ${DEFAULT-VALUE}")
    private ProducerWait producerWait = ProducerWait.YIELD;

    @Option(names = "--write-mode", description = "ringwatch puts: async | sync. Default: ${DEFAULT-VALUE}")
    private WriteMode writeMode = WriteMode.ASYNC;

    @Option(names = "--writer-wait", description = "ringwatch writer and the disruptor floor's handler: wakeable | blocking | sleeping | yielding | busy-spin. Default: ${DEFAULT-VALUE}")
    private WriterWait writerWait = WriterWait.WAKEABLE;

    @Option(names = "--dispatcher-idle", description = "ringwatch dispatchers: wakeable | backoff | sleeping | yielding | busy-spin. Default: ${DEFAULT-VALUE}")
    private ThreadIdle dispatcherIdle = ThreadIdle.WAKEABLE;

    @Option(names = "--delivery-idle", description = "ringwatch delivery threads and pull pollers: wakeable | backoff | sleeping | yielding | busy-spin. Default: ${DEFAULT-VALUE}")
    private ThreadIdle deliveryIdle = ThreadIdle.WAKEABLE;

    @Option(names = "--dispatchers", description = "ringwatch dispatcher threads. Default: ${DEFAULT-VALUE}")
    private int dispatchers = 1;

    @Option(names = "--delivery-threads", description = "ringwatch delivery threads. Default: ${DEFAULT-VALUE}")
    private int deliveryThreads = 1;

    @Option(names = "--blocked-listeners", split = ",", paramLabel = "N[,N...]",
        description = "ringwatch: listeners of every key that block for ever, beside the watchers; a comma list runs " +
            "ringwatch once per count, back to back in one report (0,1: without, then with). Default: ${DEFAULT-VALUE}")
    private List<Integer> blockedListeners = new ArrayList<>(List.of(0));

    @Option(names = "--persistence", split = ",", paramLabel = "MODE[,MODE...]",
        description = "ringwatch durability: none | async | sync; a comma list runs ringwatch once per mode, back to " +
            "back in one report, and compares each persistent mode with none (none,async,sync: in memory first, the " +
            "baseline). Default: ${DEFAULT-VALUE}")
    private List<Persistence> persistence = new ArrayList<>(List.of(Persistence.NONE));

    @Option(names = "--write-ring-size", description = "ringwatch write ring slots (a power of two); 0: the engine's " +
        "default. A persistent engine's journal frees a slot only after its append, so the ring is what absorbs a " +
        "journal thread that is descheduled or waits. Default: ${DEFAULT-VALUE}")
    private int writeRingSize = 0;

    @Option(names = "--data-dir", description = "ringwatch revision logs (with --persistence async|sync): each run " +
        "gets a fresh directory MODE-RUN under it, e.g. async-1; put it on the disk to measure, not tmpfs")
    private Path dataDir;

    @Option(names = "--etcd-endpoint", description = "etcd server. Default: ${DEFAULT-VALUE}")
    private String etcdEndpoint = "http://127.0.0.1:2379";

    @Option(names = "--etcd-rate", description = "writes per second for etcd and ringwatch-server (both driven " +
        "through jetcd); 0: --rate. Default: ${DEFAULT-VALUE}")
    private long etcdRate = 0;

    @Option(names = "--etcd-max-in-flight", description = "etcd and ringwatch-server puts outstanding per producer. " +
        "Default: ${DEFAULT-VALUE}")
    private int etcdMaxInFlight = 256;

    @Option(names = "--etcd-client", description = "the client that drives etcd and ringwatch-server, the same for both: " +
        "jetcd (jetcd 0.8.7) or grpc (grpc-java's async stubs, without jetcd's wrappers). Default: jetcd")
    private EtcdClientKind etcdClient = EtcdClientKind.JETCD;

    @Option(names = "--etcd-connections", description = "independent client connections (channels) to etcd and to " +
        "ringwatch-server, the same for both; puts and watches go to them in turn, --etcd-max-in-flight stays the " +
        "total per producer. Default: ${DEFAULT-VALUE}")
    private int etcdConnections = 1;

    @Option(names = "--server-script", description = "ringwatch-server's start script, run once per ringwatch-server " +
        "run. Default: ${DEFAULT-VALUE}")
    private Path serverScript = Path.of("server", "ringwatch-server");

    @Option(names = "--drain-timeout", description = "wait this long for events that stopped coming. Default: ${DEFAULT-VALUE}")
    private Duration drainTimeout = Duration.ofSeconds(10);

    @Option(names = "--repeat", description = "runs of each peer, back to back; the report shows the spread " +
        "(min/median/max of each percentile) and plots the run with the median p99. Default: ${DEFAULT-VALUE}")
    private int repeat = 1;

    @Option(names = "--reports-dir", description = "where run directories and index.html go. Default: ${DEFAULT-VALUE}")
    private Path reportsDir = Path.of("target", "perf-reports");

    @Option(names = "--name", description = "suffix of the run directory. Default: the engines")
    private String name;

    @Option(names = "--title", description = "report title")
    private String title;

    @Option(names = "--note", description = "free text shown at the top of the report")
    private String note = "";

    @Override
    public Integer call() throws Exception
    {
        final Workload workload = new Workload(keys, keySize, valueSize, watchers, fanout, pullWatchers);
        final LoadSettings settings =
            new LoadSettings(rate, warmup, duration, producers, producerWait, drainTimeout, saturate);
        final EngineSettings engine = new EngineSettings(writerWait, dispatcherIdle, deliveryIdle, dispatchers,
            deliveryThreads, pollers, writeMode, persistence.get(0), dataDir, writeRingSize);
        check(workload, engine);

        final Instant startedAt = Instant.now();
        final MachineInfo machine = MachineInfo.capture();
        final List<PeerResult> results = new ArrayList<>();
        final Map<String, List<PeerResult>> repeats = new LinkedHashMap<>();
        for (final PeerKind kind : engines)
        {
            final LoadSettings peerSettings = kind.jetcdClient() && etcdRate > 0 ? settings.withRate(etcdRate) : settings;
            for (final Persistence mode : kind.persistenceModes() ? persistence : List.of(Persistence.NONE))
            {
                for (final int blocked : kind == PeerKind.RINGWATCH ? blockedListeners : List.of(0))
                {
                    final List<PeerResult> runs = new ArrayList<>(repeat);
                    for (int run = 1; run <= repeat; run++)
                    {
                        if (repeat > 1)
                        {
                            System.out.printf("%s: run %d of %d%n", DashedEnumConverter.name(kind), run, repeat);
                        }
                        try (Peer peer = open(kind, engine.withPersistence(mode, logDirectory(kind, mode, blocked, run)),
                            workload, blocked))
                        {
                            runs.add(new LoadRun(peer, peerSettings, workload, System.out).execute());
                        }
                        // Leave the next peer a clean heap of the same size; the runs share one JVM.
                        HeapSettle.settle();
                    }
                    results.add(Spread.medianRun(runs));
                    if (repeat > 1)
                    {
                        repeats.put(runs.get(0).peer(), List.copyOf(runs));
                    }
                }
            }
        }

        final String engineNames = engines.stream().map(DashedEnumConverter::name).collect(Collectors.joining("-"));
        final String runName = STAMP.format(startedAt) + "-" + (name == null ? engineNames : name);
        final String reportTitle = title != null ? title : String.format("%s: %s, %d watchers (%d per write)",
            engineNames.replace('-', ' '), saturate ? "saturated" : String.format("%,d writes/s", rate), watchers,
            workload.watchersPerWrite());
        final RunReport report = new RunReport(reportTitle, note, startedAt, machine, options(), results, repeats);
        final Path runDir = reportsDir.resolve(runName);
        ReportWriter.write(report, runDir);
        ReportIndex.write(reportsDir);
        System.out.println();
        System.out.print(ReportWriter.summary(report));
        System.out.println("report: " + runDir.resolve(ReportWriter.PAGE).toAbsolutePath());
        return 0;
    }

    /**
     * A fresh log directory per persistent run, so no run recovers another's log or meets its lock;
     * null in memory.
     */
    private Path logDirectory(final PeerKind kind, final Persistence mode, final int blocked, final int run)
    {
        if (mode == Persistence.NONE || dataDir == null)
        {
            return null;
        }
        return dataDir.resolve((kind == PeerKind.RINGWATCH_SERVER ? "server-" : "") + DashedEnumConverter.name(mode) +
            (blocked == 0 ? "" : "-" + blocked + "-blocked") + "-" + run);
    }

    /** Refuses bad combinations before any peer runs, so a long run does not fail half-way. */
    private void check(final Workload workload, final EngineSettings engine)
    {
        if (engines.isEmpty())
        {
            throw new IllegalArgumentException("--engine needs at least one of " + DashedEnumConverter.names(PeerKind.class));
        }
        if (persistence.isEmpty() || persistence.stream().distinct().count() != persistence.size())
        {
            throw new IllegalArgumentException("--persistence takes distinct modes of none, async, sync: " + persistence);
        }
        final boolean persistent = persistence.stream().anyMatch(mode -> mode != Persistence.NONE);
        if (persistent && engines.stream().anyMatch(kind -> kind == PeerKind.JUC || kind == PeerKind.DISRUPTOR))
        {
            throw new IllegalArgumentException("--persistence applies to --engine ringwatch and ringwatch-server " +
                "(etcd always persists, whatever it says; the j.u.c. baseline and the disruptor floor never do)");
        }
        if (persistent && engines.contains(PeerKind.RINGWATCH_SERVER) && dataDir == null)
        {
            throw new IllegalArgumentException("--persistence async|sync needs --data-dir");
        }
        if (pullWatchers > 0 && engines.stream().anyMatch(kind -> kind != PeerKind.RINGWATCH))
        {
            throw new IllegalArgumentException("--pull-watchers needs --engine ringwatch only; push watchers only in: " +
                engines.stream().filter(kind -> kind != PeerKind.RINGWATCH).map(DashedEnumConverter::name)
                    .collect(Collectors.joining(", ")));
        }
        if (blockedListeners.isEmpty() || blockedListeners.stream().anyMatch(count -> count < 0))
        {
            throw new IllegalArgumentException("--blocked-listeners takes counts >= 0: " + blockedListeners);
        }
        if (blockedListeners.stream().anyMatch(count -> count > 0) && !engines.contains(PeerKind.RINGWATCH))
        {
            throw new IllegalArgumentException("--blocked-listeners applies to --engine ringwatch only");
        }
        if (writeRingSize < 0)
        {
            throw new IllegalArgumentException("--write-ring-size must not be negative: " + writeRingSize);
        }
        if (repeat < 1)
        {
            throw new IllegalArgumentException("--repeat must be at least 1: " + repeat);
        }
        if (pollers < 1)
        {
            throw new IllegalArgumentException("--pollers must be at least 1: " + pollers);
        }
        if (etcdRate < 0)
        {
            throw new IllegalArgumentException("--etcd-rate must not be negative: " + etcdRate);
        }
        if (etcdConnections < 1)
        {
            throw new IllegalArgumentException("--etcd-connections must be at least 1: " + etcdConnections);
        }
        if (engines.contains(PeerKind.RINGWATCH))
        {
            for (final Persistence mode : persistence)
            {
                RingWatchPeer.config(engine.withPersistence(mode, logDirectory(PeerKind.RINGWATCH, mode, 0, 1)), workload);
            }
        }
    }

    private Peer open(final PeerKind kind, final EngineSettings engine, final Workload workload, final int blocked)
    {
        return switch (kind)
        {
            case RINGWATCH -> new RingWatchPeer(engine, workload, blocked);
            case DISRUPTOR -> new DisruptorFloorPeer(writerWait, workload);
            case JUC -> new LockedBroadcastPeer();
            case ETCD -> new EtcdPeer(etcdEndpoint, etcdClientSettings());
            case RINGWATCH_SERVER -> new RingWatchServerPeer(serverScript, engine.persistence(), engine.dataDir(),
                etcdClientSettings());
        };
    }

    private EtcdClientSettings etcdClientSettings()
    {
        return new EtcdClientSettings(etcdClient, etcdConnections, etcdMaxInFlight);
    }

    private Map<String, String> options()
    {
        final Map<String, String> options = new LinkedHashMap<>();
        options.put("engine", engines.stream().map(DashedEnumConverter::name).collect(Collectors.joining(",")));
        options.put("rate", Long.toString(rate));
        options.put("saturate", Boolean.toString(saturate));
        options.put("duration", duration.toString());
        options.put("warmup", warmup.toString());
        options.put("keys", Integer.toString(keys));
        options.put("key-size", Integer.toString(keySize));
        options.put("value-size", Integer.toString(valueSize));
        options.put("watchers", Integer.toString(watchers));
        options.put("fanout", Integer.toString(fanout));
        options.put("pull-watchers", Integer.toString(pullWatchers));
        options.put("pollers", Integer.toString(pollers));
        options.put("producers", Integer.toString(producers));
        options.put("producer-wait", DashedEnumConverter.name(producerWait));
        options.put("write-mode", DashedEnumConverter.name(writeMode));
        options.put("writer-wait", DashedEnumConverter.name(writerWait));
        options.put("dispatcher-idle", DashedEnumConverter.name(dispatcherIdle));
        options.put("delivery-idle", DashedEnumConverter.name(deliveryIdle));
        options.put("dispatchers", Integer.toString(dispatchers));
        options.put("delivery-threads", Integer.toString(deliveryThreads));
        options.put("blocked-listeners", blockedListeners.stream().map(String::valueOf).collect(Collectors.joining(",")));
        options.put("persistence", persistence.stream().map(DashedEnumConverter::name).collect(Collectors.joining(",")));
        options.put("data-dir", dataDir == null ? "" : dataDir.toString());
        options.put("write-ring-size", Integer.toString(writeRingSize));
        if (engines.contains(PeerKind.ETCD))
        {
            options.put("etcd-endpoint", etcdEndpoint);
        }
        if (engines.stream().anyMatch(PeerKind::jetcdClient))
        {
            options.put("etcd-rate", Long.toString(etcdRate));
            options.put("etcd-max-in-flight", Integer.toString(etcdMaxInFlight));
            options.put("etcd-client", DashedEnumConverter.name(etcdClient));
            options.put("etcd-connections", Integer.toString(etcdConnections));
        }
        if (engines.contains(PeerKind.RINGWATCH_SERVER))
        {
            options.put("server-script", serverScript.toString());
        }
        options.put("drain-timeout", drainTimeout.toString());
        options.put("repeat", Integer.toString(repeat));
        return options;
    }
}
