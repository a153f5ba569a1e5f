package io.ringwatch.perf.recovery;

import java.util.Locale;

/**
 * What one recovery run measured. Immutable; any thread; {@link #toText()} allocates the text.
 *
 * @param settings          what was written.
 * @param writeNanos        from the first put to the acknowledgement of the last.
 * @param writeCloseNanos   closing the engine after the writes (snapshots off).
 * @param logBytes          the data directory's size after the writes (queue files' apparent size).
 * @param rawReadNanos      Chronicle Queue reading every excerpt of the same log ({@link RawLogRead}).
 * @param replayNanos       {@code RingWatch.open} with no snapshot: the whole log replayed.
 * @param replayCpuNanos    the opening thread's CPU time in that open (recovery applies the log on it).
 * @param replayProcessCpuNanos the whole process's CPU time in that open: the opening thread's, the
 *                          recovery reader thread's, and whatever else ran (JIT, GC).
 * @param snapshotNanos     closing that engine, which took one snapshot of the index.
 * @param snapshotBytes     what the snapshot added to the directory.
 * @param snapshotOpenNanos {@code RingWatch.open} again: the snapshot loaded, nothing left to replay.
 * @param snapshotOpenCpuNanos the opening thread's CPU time in that open.
 * @param loadAverage       the one-minute system load average when the run started, or negative.
 * @param processors        the processors the JVM saw.
 */
record RecoveryFigures(
    RecoverySettings settings,
    long writeNanos,
    long writeCloseNanos,
    long logBytes,
    long rawReadNanos,
    long replayNanos,
    long replayCpuNanos,
    long replayProcessCpuNanos,
    long snapshotNanos,
    long snapshotBytes,
    long snapshotOpenNanos,
    long snapshotOpenCpuNanos,
    double loadAverage,
    int processors)
{
    private static final double NANOS_PER_SECOND = 1e9;

    /**
     * @return revisions written per second, from the first put to the last acknowledgement.
     */
    double appendRate()
    {
        return perSecond(settings.revisions(), writeNanos);
    }

    /**
     * @return excerpts Chronicle Queue itself reads per second from the same log: the replay's baseline.
     */
    double rawReadRate()
    {
        return perSecond(settings.revisions(), rawReadNanos);
    }

    /**
     * @return revisions recovered per second by an open that replays the whole log.
     */
    double replayRate()
    {
        return perSecond(settings.revisions(), replayNanos);
    }

    /**
     * @return revisions recovered per second by an open from the snapshot.
     */
    double snapshotOpenRate()
    {
        return perSecond(settings.revisions(), snapshotOpenNanos);
    }

    /**
     * @return keys restored per second by an open from the snapshot.
     */
    double snapshotKeyRate()
    {
        return perSecond(settings.liveKeys(), snapshotOpenNanos);
    }

    /**
     * @return the figures as lines of text, for people.
     */
    String toText()
    {
        final StringBuilder text = new StringBuilder(1024);
        line(text, "RingWatch recovery: %,d revisions (puts of %,d keys of %d B, values of %d B), ASYNC revision log",
            settings.revisions(), settings.keys(), RecoveryWorkload.KEY_BYTES, settings.valueBytes());
        line(text, "machine: %d processors, load average %.2f at the start", processors, loadAverage);
        line(text, "write    %,14.0f rev/s  %8.2f s  (async puts, %d in flight at most; snapshots off)",
            appendRate(), seconds(writeNanos), InFlightPuts.WINDOW);
        line(text, "close    %14s         %8.2f s  log %,.1f MB", "", seconds(writeCloseNanos), megabytes(logBytes));
        line(text, "raw read %,14.0f rev/s  %8.2f s  (Chronicle Queue reading every excerpt of the log: the baseline)",
            rawReadRate(), seconds(rawReadNanos));
        line(text, "replay   %,14.0f rev/s  %8.2f s  (RingWatch.open, whole log, no snapshot: %.2fx the raw read)",
            replayRate(), seconds(replayNanos), replayRate() / rawReadRate());
        line(text, "         %,14.0f rev/s  %8.2f s  of the opening thread's CPU (what a busy machine leaves out)",
            perSecond(settings.revisions(), replayCpuNanos), seconds(replayCpuNanos));
        line(text, "         %,14.0f rev/s  %8.2f s  of the process's CPU (the reader thread's too, the JIT's, the GC's)",
            perSecond(settings.revisions(), replayProcessCpuNanos), seconds(replayProcessCpuNanos));
        line(text, "snapshot %14s         %8.2f s  (close taking one snapshot of %,d keys: %,.1f MB)",
            "", seconds(snapshotNanos), settings.liveKeys(), megabytes(snapshotBytes));
        line(text, "reopen   %,14.0f rev/s  %8.2f s  (RingWatch.open from the snapshot: %,.0f keys/s)",
            snapshotOpenRate(), seconds(snapshotOpenNanos), snapshotKeyRate());
        line(text, "         %,14.0f keys/s %8.2f s  of the opening thread's CPU",
            perSecond(settings.liveKeys(), snapshotOpenCpuNanos), seconds(snapshotOpenCpuNanos));
        return text.toString();
    }

    private static void line(final StringBuilder text, final String format, final Object... args)
    {
        text.append(String.format(Locale.ROOT, format, args)).append(System.lineSeparator());
    }

    private static double perSecond(final long count, final long nanos)
    {
        return count * NANOS_PER_SECOND / Math.max(1, nanos);
    }

    private static double seconds(final long nanos)
    {
        return nanos / NANOS_PER_SECOND;
    }

    private static double megabytes(final long bytes)
    {
        return bytes / 1e6;
    }
}
