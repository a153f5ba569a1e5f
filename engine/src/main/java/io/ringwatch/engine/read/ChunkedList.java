package io.ringwatch.engine.read;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.RandomAccess;

/**
 * An append-only list kept in fixed-size chunks, for results whose size is not known until the
 * scan ends. An {@code ArrayList} grown to a million entries copies its whole array about twenty
 * times, and on G1 each copy past half a region is a humongous allocation zeroed before use; a
 * profile of a 1,000,000-key read put a quarter of its samples there. Chunks never move.
 *
 * <p>Threads: one thread. Allocation: one chunk of {@value #CHUNK} references per {@value #CHUNK}
 * elements, and the exact-size array {@link #toArray()} makes.
 *
 * @param <T> the element type.
 */
final class ChunkedList<T> extends AbstractList<T> implements RandomAccess
{
    private static final int SHIFT = 12;
    private static final int CHUNK = 1 << SHIFT;
    private static final int MASK = CHUNK - 1;

    private final ArrayList<Object[]> chunks = new ArrayList<>();
    private int size;

    @Override
    public boolean add(final T element)
    {
        final int slot = size & MASK;
        if (slot == 0)
        {
            chunks.add(new Object[CHUNK]);
        }
        chunks.get(size >>> SHIFT)[slot] = element;
        size++;
        return true;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T get(final int index)
    {
        if (index < 0 || index >= size)
        {
            throw new IndexOutOfBoundsException("index " + index + " of " + size);
        }
        return (T)chunks.get(index >>> SHIFT)[index & MASK];
    }

    @Override
    public T set(final int index, final T element)
    {
        final T old = get(index);
        chunks.get(index >>> SHIFT)[index & MASK] = element;
        return old;
    }

    @Override
    public int size()
    {
        return size;
    }

    /**
     * @return the elements in a new array, chunk by chunk ({@code List.copyOf} and
     * {@code ArrayList}'s copy constructor call this).
     */
    @Override
    public Object[] toArray()
    {
        final Object[] all = new Object[size];
        for (int c = 0, copied = 0; copied < size; c++)
        {
            final int n = Math.min(CHUNK, size - copied);
            System.arraycopy(chunks.get(c), 0, all, copied, n);
            copied += n;
        }
        return all;
    }
}
