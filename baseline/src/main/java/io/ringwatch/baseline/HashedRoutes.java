package io.ringwatch.baseline;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link Routing#HASHED}: watchers in hash maps by what they watch; a put looks its key up once
 * among the exact-key watchers and once per distinct prefix length among the prefix watchers, so
 * watchers of other keys cost it nothing. Under the store's lock; a put allocates a key wrapper
 * per lookup.
 */
final class HashedRoutes implements Routes
{
    private final Map<ByteBuffer, List<LockedWatcher>> byKey = new HashMap<>();
    private final Map<ByteBuffer, List<LockedWatcher>> byPrefix = new HashMap<>();
    private int[] prefixLengths = new int[0];

    @Override
    public void add(final byte[] watched, final boolean prefix, final LockedWatcher watcher)
    {
        (prefix ? byPrefix : byKey).computeIfAbsent(ByteBuffer.wrap(watched), w -> new ArrayList<>()).add(watcher);
        if (prefix && Arrays.stream(prefixLengths).noneMatch(length -> length == watched.length))
        {
            prefixLengths = Arrays.copyOf(prefixLengths, prefixLengths.length + 1);
            prefixLengths[prefixLengths.length - 1] = watched.length;
        }
    }

    @Override
    public void offer(final ChangeEvent event) throws InterruptedException
    {
        final byte[] key = event.key();
        if (!byKey.isEmpty())
        {
            offerAll(byKey.get(ByteBuffer.wrap(key)), event);
        }
        for (final int length : prefixLengths)
        {
            if (length <= key.length)
            {
                offerAll(byPrefix.get(ByteBuffer.wrap(key, 0, length)), event);
            }
        }
    }

    private static void offerAll(final List<LockedWatcher> watchers, final ChangeEvent event) throws InterruptedException
    {
        if (watchers == null)
        {
            return;
        }
        // Backwards, so that removing a refusing watcher does not skip the next one.
        for (int i = watchers.size() - 1; i >= 0; i--)
        {
            if (!watchers.get(i).offer(event))
            {
                watchers.remove(i);
            }
        }
    }
}
