package io.ringwatch.jmh.dispatch;

import io.ringwatch.engine.internal.dispatch.RouteVisitor;
import org.agrona.DirectBuffer;

import java.util.Arrays;

/**
 * The naive router that {@link io.ringwatch.engine.internal.dispatch.WatchRoutes} is measured against: a flat list of
 * registrations, every one of which is tested against every routed key, so routing costs O(all watchers).
 * <p>
 * It matches keys exactly as WatchRoutes does (exact keys by content, ranges {@code [from, to)} compared as
 * unsigned bytes, {@code null} upper bound meaning unbounded) and copies the key out of the buffer once per
 * route, as WatchRoutes does, so the two differ only in how they find the matches.
 * <p>
 * <b>Threading:</b> not thread-safe; one benchmark thread calls every method.
 * <b>Allocation:</b> registering allocates a registration and may grow the list; {@link #route} allocates
 * nothing unless a key is longer than any routed before.
 *
 * @param <W> the watcher type.
 */
public final class LinearScanRoutes<W>
{
    private Registration<W>[] registrations = newArray(16);
    private int size;
    private byte[] scratch = new byte[64];

    /**
     * Registers a watcher of one exact key. Benchmark thread only; allocates a registration and a key copy.
     *
     * @param key     the key; copied.
     * @param watcher the watcher to report when this key is routed.
     */
    public void addKey(final byte[] key, final W watcher)
    {
        add(new Registration<>(key.clone(), null, true, watcher));
    }

    /**
     * Registers a watcher of the keys in {@code [from, toExclusive)}. Benchmark thread only; allocates a
     * registration and copies of the bounds.
     *
     * @param from        the inclusive lower bound; copied.
     * @param toExclusive the exclusive upper bound, or {@code null} for unbounded; copied.
     * @param watcher     the watcher to report for keys in the range.
     */
    public void addRange(final byte[] from, final byte[] toExclusive, final W watcher)
    {
        add(new Registration<>(from.clone(), null == toExclusive ? null : toExclusive.clone(), false, watcher));
    }

    /**
     * Tests every registration against the key and calls the visitor for each that matches, in registration
     * order. Benchmark thread only; allocates nothing in steady state.
     *
     * @param key     buffer holding the key.
     * @param offset  where the key starts in the buffer.
     * @param length  the key length in bytes.
     * @param visitor receives each matching watcher.
     * @return the number of matches.
     */
    public int route(final DirectBuffer key, final int offset, final int length, final RouteVisitor<W> visitor)
    {
        if (length > scratch.length)
        {
            scratch = new byte[Math.max(length, scratch.length * 2)];
        }
        final byte[] bytes = scratch;
        key.getBytes(offset, bytes, 0, length);

        final Registration<W>[] registrations = this.registrations;
        final int size = this.size;
        int matches = 0;
        for (int i = 0; i < size; i++)
        {
            final Registration<W> registration = registrations[i];
            if (registration.matches(bytes, length))
            {
                visitor.onMatch(registration.watcher);
                matches++;
            }
        }
        return matches;
    }

    private void add(final Registration<W> registration)
    {
        if (size == registrations.length)
        {
            registrations = Arrays.copyOf(registrations, size * 2);
        }
        registrations[size++] = registration;
    }

    @SuppressWarnings("unchecked")
    private static <W> Registration<W>[] newArray(final int length)
    {
        return (Registration<W>[])new Registration<?>[length];
    }

    /**
     * One watch: an exact key ({@code from} alone) or a range {@code [from, to)}.
     */
    private static final class Registration<W>
    {
        final byte[] from;
        final byte[] to;
        final boolean exact;
        final W watcher;

        Registration(final byte[] from, final byte[] to, final boolean exact, final W watcher)
        {
            this.from = from;
            this.to = to;
            this.exact = exact;
            this.watcher = watcher;
        }

        boolean matches(final byte[] key, final int length)
        {
            if (exact)
            {
                return Arrays.equals(from, 0, from.length, key, 0, length);
            }
            return Arrays.compareUnsigned(from, 0, from.length, key, 0, length) <= 0 &&
                (null == to || Arrays.compareUnsigned(to, 0, to.length, key, 0, length) > 0);
        }
    }
}
