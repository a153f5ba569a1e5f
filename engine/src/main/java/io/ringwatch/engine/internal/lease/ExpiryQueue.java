package io.ringwatch.engine.internal.lease;

import java.util.Arrays;

/**
 * The live leases as a binary min-heap on (deadline, id), each lease knowing its index, so that a
 * keep-alive moves its lease in O(log n) and a revoke removes it in O(log n), with no allocation
 * but the array's growth. Ties break by id, so which lease is due first never depends on the order
 * of earlier operations. Writer thread only.
 */
final class ExpiryQueue
{
    private Lease[] heap = new Lease[16];
    private int size;

    Lease first()
    {
        return size == 0 ? null : heap[0];
    }

    void add(final Lease lease)
    {
        if (size == heap.length)
        {
            heap = Arrays.copyOf(heap, size * 2);
        }
        heap[size] = lease;
        lease.queueIndex = size;
        size++;
        up(lease.queueIndex);
    }

    void remove(final Lease lease)
    {
        final int at = lease.queueIndex;
        final Lease last = heap[--size];
        heap[size] = null;
        lease.queueIndex = -1;
        if (at != size)
        {
            heap[at] = last;
            last.queueIndex = at;
            down(at);
            up(last.queueIndex);
        }
    }

    /** Restores the order after the lease's deadline changed. */
    void moved(final Lease lease)
    {
        down(lease.queueIndex);
        up(lease.queueIndex);
    }

    private void up(final int from)
    {
        int at = from;
        final Lease lease = heap[at];
        while (at > 0)
        {
            final int parent = (at - 1) >>> 1;
            if (!before(lease, heap[parent]))
            {
                break;
            }
            place(heap[parent], at);
            at = parent;
        }
        place(lease, at);
    }

    private void down(final int from)
    {
        int at = from;
        final Lease lease = heap[at];
        while (true)
        {
            final int left = 2 * at + 1;
            if (left >= size)
            {
                break;
            }
            final int right = left + 1;
            final int child = right < size && before(heap[right], heap[left]) ? right : left;
            if (!before(heap[child], lease))
            {
                break;
            }
            place(heap[child], at);
            at = child;
        }
        place(lease, at);
    }

    private void place(final Lease lease, final int at)
    {
        heap[at] = lease;
        lease.queueIndex = at;
    }

    private static boolean before(final Lease a, final Lease b)
    {
        return a.deadlineMillis < b.deadlineMillis || (a.deadlineMillis == b.deadlineMillis && a.id < b.id);
    }
}
