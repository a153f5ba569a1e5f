package io.ringwatch.informer;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;

import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns cached objects and engine key-values into one comparable form: key to
 * "value create/mod/version", sorted by key.
 */
final class InformerTestState
{
    private InformerTestState()
    {
    }

    static Map<String, String> of(final Collection<CachedObject> objects)
    {
        final Map<String, String> state = new TreeMap<>();
        for (final CachedObject o : objects)
        {
            state.put(o.key().asString(), o.valueAsString() + " " + o.createRevision() + "/" + o.modRevision() + "/" + o.version());
        }
        return state;
    }

    static Map<String, String> engine(final RingWatch engine, final KeyRange range)
    {
        final Map<String, String> state = new TreeMap<>();
        for (final KeyValue kv : engine.range(range, 0).kvs())
        {
            state.put(kv.keyAsString(), kv.valueAsString() + " " + kv.createRevision() + "/" + kv.modRevision() + "/" + kv.version());
        }
        return state;
    }
}
