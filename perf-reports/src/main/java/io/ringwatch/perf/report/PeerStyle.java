package io.ringwatch.perf.report;

/**
 * How each peer is drawn, the same in every plot of every run: a fixed colour for the known
 * peers, and the floor (the bare Disruptor ring) as a dashed reference line. Stateless.
 */
final class PeerStyle
{
    /** The peer that measures the floor: the Disruptor hand-over alone, under the same load. */
    static final String FLOOR = "disruptor";

    private static final String[] OTHERS = {"#9467bd", "#8c564b", "#e377c2", "#17becf"};

    private PeerStyle()
    {
    }

    /**
     * @param peer  the peer's name.
     * @param index its place in the run, which picks a colour for a peer without one of its own.
     * @return its line and label colour.
     */
    static String colour(final String peer, final int index)
    {
        return switch (peer)
        {
            case "ringwatch" -> "#1f77b4";
            case FLOOR -> "#555555";
            case "juc" -> "#d62728";
            case "etcd" -> "#2ca02c";
            default -> OTHERS[index % OTHERS.length];
        };
    }

    /**
     * @param peer the peer's name.
     * @return true for the floor, which plots draw as a dashed reference line.
     */
    static boolean isFloor(final String peer)
    {
        return FLOOR.equals(peer);
    }
}
