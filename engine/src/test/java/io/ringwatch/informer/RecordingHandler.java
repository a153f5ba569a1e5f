package io.ringwatch.informer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A handler for tests: applies its notifications to its own map (its view of the cache) and
 * records every breach of the handler contract instead of throwing, so a test can assert on them
 * afterwards: an add for a key it holds, an update or delete for a key it does not hold, an old
 * object other than the one it was last given. Optionally blocks on a gate, pauses, or throws
 * after recording.
 */
class RecordingHandler implements ResourceEventHandler
{
    private final Map<ObjectKey, CachedObject> view = new HashMap<>();
    private final List<String> violations = new ArrayList<>();
    private final List<String> log = new ArrayList<>();
    private int notifications;
    private int resyncs;
    private volatile CountDownLatch gate;
    private Random pauses;
    private Random throwing;

    /**
     * Blocks every call until {@link #open()}.
     */
    RecordingHandler closed()
    {
        gate = new CountDownLatch(1);
        return this;
    }

    void open()
    {
        gate.countDown();
    }

    /**
     * Sleeps a millisecond on about one call in eight, to fall behind.
     */
    RecordingHandler slow(final long seed)
    {
        pauses = new Random(seed);
        return this;
    }

    /**
     * Throws after recording on about one call in five.
     */
    RecordingHandler throwing(final long seed)
    {
        throwing = new Random(seed);
        return this;
    }

    @Override
    public void onAdd(final CachedObject obj)
    {
        enter();
        synchronized (this)
        {
            log.add("add " + obj.key() + "=" + obj.valueAsString());
            notifications++;
            if (view.putIfAbsent(obj.key(), obj) != null)
            {
                violations.add("duplicate add of " + obj);
            }
        }
        leave();
    }

    @Override
    public void onUpdate(final CachedObject oldObj, final CachedObject newObj)
    {
        enter();
        synchronized (this)
        {
            log.add((oldObj == newObj ? "resync " : "update ") + newObj.key() + "=" + newObj.valueAsString());
            notifications++;
            if (oldObj == newObj)
            {
                resyncs++;
            }
            if (!oldObj.key().equals(newObj.key()))
            {
                violations.add("update across keys " + oldObj + " -> " + newObj);
            }
            final CachedObject seen = view.get(newObj.key());
            if (seen == null)
            {
                violations.add("update of a key never added: " + newObj);
            }
            else if (seen != oldObj)
            {
                violations.add("update's old object " + oldObj + " is not the one last given: " + seen);
            }
            view.put(newObj.key(), newObj);
        }
        leave();
    }

    @Override
    public void onDelete(final CachedObject obj)
    {
        enter();
        synchronized (this)
        {
            log.add("delete " + obj.key());
            notifications++;
            final CachedObject seen = view.remove(obj.key());
            if (seen != obj)
            {
                violations.add("delete of " + obj + " but last given " + seen);
            }
        }
        leave();
    }

    synchronized Map<String, String> state()
    {
        return InformerTestState.of(view.values());
    }

    synchronized List<String> violations()
    {
        return new ArrayList<>(violations);
    }

    synchronized List<String> log()
    {
        return new ArrayList<>(log);
    }

    synchronized void clearLog()
    {
        log.clear();
    }

    synchronized int notifications()
    {
        return notifications;
    }

    synchronized int resyncs()
    {
        return resyncs;
    }

    synchronized CachedObject seen(final String key)
    {
        return view.get(ObjectKey.of(key));
    }

    synchronized Map<String, String> sorted()
    {
        return new TreeMap<>(state());
    }

    private void enter()
    {
        final CountDownLatch g = gate;
        if (g != null)
        {
            try
            {
                g.await(Await.PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
        if (pauses != null && pauses.nextInt(8) == 0)
        {
            try
            {
                Thread.sleep(1);
            }
            catch (final InterruptedException e)
            {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void leave()
    {
        if (throwing != null && throwing.nextInt(5) == 0)
        {
            throw new IllegalStateException("handler failure on purpose");
        }
    }
}
