package io.ringwatch.baseline;

/**
 * A key's state after one put, with etcd-style revisions: both the value the {@link LockedWatchStore}
 * keeps for the key and the event its watchers receive (one object serves both, as a Kubernetes
 * watch cache shares its objects). Immutable once built; the arrays are the store's copies and must
 * not be changed by a watcher.
 *
 * @param key            the key; the store's copy.
 * @param value          the value; the store's copy.
 * @param createRevision the revision at which the key was last created.
 * @param modRevision    the revision of this put.
 * @param version        how many puts the key has had since it was created, this one included.
 */
public record ChangeEvent(byte[] key, byte[] value, long createRevision, long modRevision, long version)
{
}
