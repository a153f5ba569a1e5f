package io.ringwatch.replay;

import io.ringwatch.persistence.LeaseFile;

import java.io.PrintWriter;
import java.util.List;
import java.util.TreeMap;

/**
 * {@code print}'s lease lines: the lease log's grants and ends recorded within the printed span
 * (from after revision from - 1 up to revision to), each after the events of the revision it names (a grant recorded after revision R and
 * before R + 1 comes after R's events). The command's thread; allocates a line per record.
 */
final class LeaseLines
{
    private final PrintWriter out;
    private final OutputFormat format;
    private final List<LeaseFile.Record> records;
    private final long to;
    private int next;

    LeaseLines(final PrintWriter out, final OutputFormat format, final List<LeaseFile.Record> records, final long from, final long to)
    {
        this.out = out;
        this.format = format;
        this.records = records;
        this.to = to;
        // Records after revision from - 1 come before revision from's events: they open the span.
        while (next < records.size() && records.get(next).revision() < from - 1)
        {
            next++;
        }
    }

    /** Prints the records recorded before {@code revision} (their revision is below it). */
    void printBefore(final long revision)
    {
        while (next < records.size() && records.get(next).revision() < revision && records.get(next).revision() <= to)
        {
            out.println(format.lease(records.get(next++)));
        }
    }

    /** Prints the records left up to the span's last revision. */
    void printRest()
    {
        printBefore(Long.MAX_VALUE);
    }

    /**
     * The leases live at {@code revision} by the lease log: granted at or before it and not ended
     * at or before it.
     *
     * @param records  the lease log's records, in order.
     * @param revision the revision.
     * @return lease id to granted TTL, in id order.
     */
    static TreeMap<Long, Long> liveAt(final List<LeaseFile.Record> records, final long revision)
    {
        final TreeMap<Long, Long> live = new TreeMap<>();
        for (final LeaseFile.Record record : records)
        {
            if (record.revision() > revision)
            {
                break;
            }
            if (record.op() == LeaseFile.GRANT)
            {
                live.put(record.id(), record.ttlSeconds());
            }
            else
            {
                live.remove(record.id());
            }
        }
        return live;
    }
}
