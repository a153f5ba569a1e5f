package io.ringwatch.engine.internal.read;

import io.ringwatch.engine.internal.index.ByteKey;
import org.agrona.DirectBuffer;

import java.util.HashSet;

/**
 * The keys a read at a past revision has met a change of, so that it keeps only each key's first
 * change after that revision (the one that carries the key's state then) and not every change:
 * what the read holds grows with the keys changed in its range, not with the revisions written
 * since (a paginated LIST whose pages come long after its first one, under a writer that changes
 * the same keys over and over, would otherwise hold a pre-image per change for every page).
 * <p>
 * One reader thread. Allocates a copy of each key the first time it is met (and the set's
 * growth); a key met again allocates nothing.
 */
final class FirstChanges
{
    private final HashSet<ByteKey> met = new HashSet<>();
    private final ByteKey probe = ByteKey.probe(64);

    /**
     * @param key    holds the key from index 0.
     * @param length its length.
     * @return true the first time this key is met, false after.
     */
    boolean isFirst(final DirectBuffer key, final int length)
    {
        return !met.contains(probe.wrap(key, length)) && met.add(probe.copy());
    }
}
