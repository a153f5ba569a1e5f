package io.ringwatch.engine.watch;

/**
 * The kind of change a watch event reports, as etcd's {@code mvccpb.Event.EventType}: the watch
 * API's own type, apart from how the engine stores events. Immutable; any thread.
 */
public enum EventType
{
    /** A key was created or its value replaced. */
    PUT,

    /** A key was deleted. */
    DELETE
}
