package io.ringwatch.informer;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.zip.CRC32C;

/**
 * Detects cached objects whose value bytes changed after they were cached (client-go's
 * CacheMutationDetector, with a checksum instead of a deep copy). Off: {@link #seal} returns 0 and
 * nothing is checked. On: each object carries the CRC32C of its value, and {@link #verify}
 * recomputes it. Each mutated object is reported once. Any thread; debug use only (a CRC per
 * check, a lock around the set of objects already reported).
 */
final class MutationDetector
{
    private final boolean enabled;
    private final ErrorReporter errors;
    private final Set<CachedObject> reported = Collections.newSetFromMap(new IdentityHashMap<>());

    MutationDetector(final boolean enabled, final ErrorReporter errors)
    {
        this.enabled = enabled;
        this.errors = errors;
    }

    /**
     * @return the checksum a new object with this value carries (0 when detection is off).
     */
    int seal(final byte[] value)
    {
        return enabled ? crc(value) : 0;
    }

    /**
     * Checks one object and reports it the first time it is found mutated.
     *
     * @return true when the object is intact (always, when detection is off).
     */
    boolean verify(final CachedObject obj)
    {
        if (!enabled || crc(obj.valueArray()) == obj.checksum())
        {
            return true;
        }
        final boolean first;
        synchronized (reported)
        {
            first = reported.add(obj);
        }
        if (first)
        {
            errors.report(new CacheMutationException(obj.key(), obj.modRevision()));
        }
        return false;
    }

    /**
     * @return the keys of the mutated objects among {@code objects}.
     */
    List<ObjectKey> scan(final Collection<CachedObject> objects)
    {
        final List<ObjectKey> mutated = new ArrayList<>();
        if (enabled)
        {
            for (final CachedObject obj : objects)
            {
                if (!verify(obj))
                {
                    mutated.add(obj.key());
                }
            }
        }
        return mutated;
    }

    private static int crc(final byte[] value)
    {
        final CRC32C crc = new CRC32C();
        crc.update(value, 0, value.length);
        return (int)crc.getValue();
    }
}
