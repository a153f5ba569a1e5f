package io.ringwatch.perf.report;

import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Everything one invocation of the harness measured, ready to be written: the peers' results in
 * the order they ran, the options, the machine. Immutable; thread-safe.
 *
 * @param title     a short title.
 * @param note      free text for the reader (e.g. "machine shared with other builds"); may be empty.
 * @param startedAt when the run started.
 * @param machine   where it ran.
 * @param options   the harness options, name to value, in display order.
 * @param results   one per peer, in the order they ran (with {@code --repeat N}: each peer's run
 *                  with the median p99, the one the plots draw).
 * @param repeats   with {@code --repeat N}, every run of each peer by peer name, in order; empty
 *                  for a single run.
 */
public record RunReport(
    String title, String note, Instant startedAt, MachineInfo machine, Map<String, String> options,
    List<PeerResult> results, Map<String, List<PeerResult>> repeats)
{
    /**
     * A report of one run per peer.
     *
     * @param title     a short title.
     * @param note      free text for the reader; may be empty.
     * @param startedAt when the run started.
     * @param machine   where it ran.
     * @param options   the harness options, in display order.
     * @param results   one per peer, in the order they ran.
     */
    public RunReport(final String title, final String note, final Instant startedAt, final MachineInfo machine,
        final Map<String, String> options, final List<PeerResult> results)
    {
        this(title, note, startedAt, machine, options, results, Map.of());
    }
}
