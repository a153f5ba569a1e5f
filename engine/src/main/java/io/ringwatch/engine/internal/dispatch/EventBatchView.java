package io.ringwatch.engine.internal.dispatch;

import io.ringwatch.engine.watch.EventBatch;
import io.ringwatch.engine.watch.WatchEvent;

import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A reusable batch of event slots a consumer fills from the window and hands to a listener.
 * Bounded by a count and by a byte budget, so one batch of huge values cannot grow every slot's
 * buffers. Used by one consumer thread at a time; allocates only its slots, once.
 */
final class EventBatchView implements EventBatch
{
    /** A batch stops taking events once it holds this many key and value bytes. */
    static final int BYTE_BUDGET = 1 << 20;

    private final EventView[] slots;
    /** The one iterator this batch hands out, rewound by each {@link #iterator()} call. */
    private final Cursor cursor = new Cursor();
    private int size;
    private long bytes;

    EventBatchView(final int capacity)
    {
        slots = new EventView[capacity];
        for (int i = 0; i < capacity; i++)
        {
            slots[i] = new EventView();
        }
    }

    @Override
    public int size()
    {
        return size;
    }

    @Override
    public WatchEvent get(final int index)
    {
        if (index < 0 || index >= size)
        {
            throw new IndexOutOfBoundsException("index " + index + " outside batch of " + size);
        }
        return slots[index];
    }

    @Override
    public Iterator<WatchEvent> iterator()
    {
        cursor.next = 0;
        return cursor;
    }

    boolean isFull()
    {
        return size == slots.length || bytes >= BYTE_BUDGET;
    }

    /** The slot the next event is read into; becomes part of the batch on {@link #commit}. */
    EventView nextSlot()
    {
        return slots[size];
    }

    void commit(final boolean showPrevKv, final int indexMatch)
    {
        final EventView view = slots[size++];
        view.show(showPrevKv, indexMatch);
        bytes += view.record.keyLength() + view.record.valueLength() + view.record.prevValueLength();
    }

    void clear()
    {
        size = 0;
        bytes = 0;
    }

    /** The reused iterator: no allocation per for-each loop. */
    private final class Cursor implements Iterator<WatchEvent>
    {
        private int next;

        @Override
        public boolean hasNext()
        {
            return next < size;
        }

        @Override
        public WatchEvent next()
        {
            if (next >= size)
            {
                throw new NoSuchElementException("batch of " + size + " events");
            }
            return slots[next++];
        }
    }

    /**
     * Empties the batch but keeps what was read into {@link #nextSlot()} as the next slot, so a
     * consumer can deliver the events before it first (a progress boundary) without reading it
     * again.
     */
    void clearKeepingNext()
    {
        if (size > 0)
        {
            final EventView next = slots[size];
            slots[size] = slots[0];
            slots[0] = next;
        }
        size = 0;
        bytes = 0;
    }
}
