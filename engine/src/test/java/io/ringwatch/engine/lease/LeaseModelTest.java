package io.ringwatch.engine.lease;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.KeyNotFoundException;
import io.ringwatch.engine.errors.LeaseExistsException;
import io.ringwatch.engine.errors.LeaseNotFoundException;
import io.ringwatch.engine.kv.Compare;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.watch.Event;
import io.ringwatch.engine.watch.EventType;
import io.ringwatch.engine.watch.PullWatcher;
import io.ringwatch.engine.watch.WatchRequest;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Seeded model test of leases: random puts with and without leases, ignore_lease, deletes,
 * transactions comparing and attaching leases, grants (engine- and caller-chosen ids, some
 * colliding), keep-alives, revokes and clock advances with expiry checks, on an engine with a manual
 * clock and no timer. After every step the engine's key-values (leases included), its lease list,
 * every lease's time to live and keys, and the events each of two prevKv watchers has received equal
 * a reference model's: an expiry or revoke is one revision deleting the lease's keys in key order,
 * each with its previous key-value. {@code -Dringwatch.seed=N} repeats a run; the seed is in every
 * failure message.
 */
class LeaseModelTest
{
    private static final int STEPS = Integer.getInteger("ringwatch.leaseSteps", 1_500);
    private static final long MIN_TTL = 2;
    private static final String[] KEYS = {"a", "b", "c", "d", "e", "f", "g", "h", "x/1", "x/2", "x/3", "x/4"};

    private final AtomicLong clock = new AtomicLong(5_000);
    private final TreeMap<String, KeyValue> kvs = new TreeMap<>();
    private final TreeMap<Long, ModelLease> leases = new TreeMap<>();
    private final List<Event> allEvents = new ArrayList<>();
    private final List<Event> prefixEvents = new ArrayList<>();
    private long revision;
    private long nextId = 1;

    @Test
    void everyStepMatchesTheModel() throws Exception
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        final Random random = new Random(seed);
        final String context = "seed " + seed + " (-Dringwatch.seed=" + seed + ")";
        System.out.println("LeaseModelTest " + context);
        try (RingWatch engine = RingWatch.open(RingWatchConfig.builder()
            .leaseClock(clock::get).leaseCheckInterval(Duration.ZERO).leaseMinTtlSeconds(MIN_TTL).build()))
        {
            final Leases api = engine.leases();
            final PullWatcher all = engine.watchPull(WatchRequest.of(KeyRange.all()).withPrevKv());
            final PullWatcher prefix = engine.watchPull(WatchRequest.of(KeyRange.prefix("x/")).withPrevKv());
            final List<Event> seenAll = new ArrayList<>();
            final List<Event> seenPrefix = new ArrayList<>();
            for (int step = 0; step < STEPS; step++)
            {
                final String at = context + ", step " + step;
                act(engine, api, random, at);
                assertEquals(revision, engine.currentRevision(), at);
                assertEquals(List.copyOf(kvs.values()), engine.range(KeyRange.all(), 0).kvs(), at);
                assertArrayEquals(leases.keySet().stream().mapToLong(Long::longValue).toArray(), api.leases(), at);
                for (final Map.Entry<Long, ModelLease> lease : leases.entrySet())
                {
                    final LeaseTimeToLive ttl = api.timeToLive(lease.getKey(), true);
                    assertEquals(lease.getValue().ttl, ttl.grantedTtlSeconds(), at);
                    assertEquals(Math.max(0, lease.getValue().deadline - clock.get()), ttl.remainingMillis(), at);
                    assertEquals(List.copyOf(lease.getValue().keys),
                        ttl.keys().stream().map(k -> new String(k, StandardCharsets.UTF_8)).toList(), at);
                }
                // Only this step's events: the earlier ones were equal at their step.
                final int allBefore = seenAll.size();
                final int prefixBefore = seenPrefix.size();
                drain(all, seenAll, allEvents.size(), at);
                drain(prefix, seenPrefix, prefixEvents.size(), at);
                assertEquals(allEvents.subList(allBefore, allEvents.size()), seenAll.subList(allBefore, seenAll.size()), at);
                assertEquals(prefixEvents.subList(prefixBefore, prefixEvents.size()),
                    seenPrefix.subList(prefixBefore, seenPrefix.size()), at);
            }
        }
    }

    private void act(final RingWatch engine, final Leases api, final Random random, final String at)
    {
        final int choice = random.nextInt(100);
        final String key = KEYS[random.nextInt(KEYS.length)];
        if (choice < 35)
        {
            final int mode = random.nextInt(4);
            final long lease = mode == 1 ? someLease(random) : 0;
            Op op = Op.put(key, "v" + random.nextInt(1000));
            op = mode == 1 ? op.withLease(lease) : mode == 2 ? op.withIgnoreLease() : op;
            final Op put = op;
            final RuntimeException refused = refusal(put);
            if (refused != null)
            {
                assertThrows(refused.getClass(), () -> engine.write(put), at);
                return;
            }
            engine.write(put);
            revision++;
            applyPut(put);
        }
        else if (choice < 42)
        {
            engine.delete(key);
            if (kvs.containsKey(key))
            {
                revision++;
                deleteKeys(List.of(key));
            }
        }
        else if (choice < 50)
        {
            txn(engine, random, key, at);
        }
        else if (choice < 62)
        {
            final long id = random.nextInt(3) == 0 ? 1 + random.nextInt(12) : 0;
            final long ttl = random.nextInt(8);
            if (id != 0 && leases.containsKey(id))
            {
                assertThrows(LeaseExistsException.class, () -> api.grant(id, ttl), at);
                return;
            }
            final LeaseGrant grant = api.grant(id, ttl);
            final long expected = id != 0 ? id : chooseId();
            assertEquals(expected, grant.id(), at);
            assertEquals(Math.max(ttl, MIN_TTL), grant.ttlSeconds(), at);
            leases.put(expected, new ModelLease(expected, grant.ttlSeconds(), clock.get() + grant.ttlSeconds() * 1000));
        }
        else if (choice < 75)
        {
            final long id = someLease(random);
            final ModelLease lease = leases.get(id);
            if (lease == null || lease.deadline <= clock.get())
            {
                if (lease != null)
                {
                    // A renewal of a due lease ends it before it is refused.
                    end(id);
                }
                assertThrows(LeaseNotFoundException.class, () -> api.keepAlive(id), at);
                return;
            }
            assertEquals(lease.ttl, api.keepAlive(id), at);
            lease.deadline = clock.get() + lease.ttl * 1000;
        }
        else if (choice < 82)
        {
            final long id = someLease(random);
            final ModelLease lease = leases.get(id);
            if (lease == null)
            {
                assertThrows(LeaseNotFoundException.class, () -> api.revoke(id), at);
                return;
            }
            end(id);
            assertEquals(revision, api.revoke(id), at);
        }
        else
        {
            clock.addAndGet(random.nextInt(2_500));
            int ended = 0;
            ModelLease due;
            while ((due = firstDue()) != null)
            {
                end(due.id);
                ended++;
            }
            assertEquals(ended, api.expireDue(), at);
        }
    }

    private void txn(final RingWatch engine, final Random random, final String key, final String at)
    {
        final KeyValue current = kvs.get(key);
        final long currentLease = current == null ? 0 : current.lease();
        final long operand = random.nextBoolean() ? currentLease : someLease(random);
        final Compare when = Compare.number(key.getBytes(StandardCharsets.UTF_8), Compare.Target.LEASE, Compare.Result.EQUAL, operand);
        final String other = KEYS[random.nextInt(KEYS.length)];
        final List<Op> then = new ArrayList<>();
        then.add(Op.put(key, "t" + random.nextInt(1000)).withLease(someLease(random)));
        if (!other.equals(key))
        {
            then.add(random.nextBoolean() ? Op.put(other, "u").withIgnoreLease() : Op.put(other, "u"));
        }
        final Txn txn = Txn.of(List.of(when), then, List.of());
        if (currentLease != operand)
        {
            engine.txn(txn);
            return;
        }
        for (final Op op : then)
        {
            final RuntimeException refused = refusal(op);
            if (refused != null)
            {
                assertThrows(refused.getClass(), () -> engine.txn(txn), at);
                return;
            }
        }
        engine.txn(txn);
        revision++;
        for (final Op op : then)
        {
            applyPut(op);
        }
    }

    /** @return the error the engine must refuse a put with, or null. */
    private RuntimeException refusal(final Op put)
    {
        final String key = new String(put.key(), StandardCharsets.UTF_8);
        if (put.ignoreLease() && !kvs.containsKey(key))
        {
            return new KeyNotFoundException();
        }
        if (put.lease() != 0 && !leases.containsKey(put.lease()))
        {
            return new LeaseNotFoundException(put.lease());
        }
        return null;
    }

    private void applyPut(final Op put)
    {
        final String key = new String(put.key(), StandardCharsets.UTF_8);
        final KeyValue prev = kvs.get(key);
        final long lease = put.ignoreLease() ? prev.lease() : put.lease();
        final KeyValue kv = new KeyValue(put.key(), put.value(), prev == null ? revision : prev.createRevision(), revision,
            prev == null ? 1 : prev.version() + 1, lease);
        if (prev != null && prev.lease() != 0 && leases.containsKey(prev.lease()))
        {
            leases.get(prev.lease()).keys.remove(key);
        }
        if (lease != 0)
        {
            leases.get(lease).keys.add(key);
        }
        kvs.put(key, kv);
        record(new Event(EventType.PUT, kv, prev), key);
    }

    /** Deletes the keys, in key order, under the current revision. */
    private void deleteKeys(final Iterable<String> keys)
    {
        for (final String key : keys)
        {
            final KeyValue prev = kvs.remove(key);
            if (prev.lease() != 0 && leases.containsKey(prev.lease()))
            {
                leases.get(prev.lease()).keys.remove(key);
            }
            record(new Event(EventType.DELETE, new KeyValue(prev.key(), new byte[0], 0, revision, 0), prev), key);
        }
    }

    private void end(final long id)
    {
        final ModelLease lease = leases.remove(id);
        if (!lease.keys.isEmpty())
        {
            revision++;
            deleteKeys(new TreeSet<>(lease.keys));
        }
    }

    private ModelLease firstDue()
    {
        ModelLease first = null;
        for (final ModelLease lease : leases.values())
        {
            if (lease.deadline <= clock.get() && (first == null || lease.deadline < first.deadline))
            {
                first = lease;
            }
        }
        return first;
    }

    private void record(final Event event, final String key)
    {
        allEvents.add(event);
        if (key.startsWith("x/"))
        {
            prefixEvents.add(event);
        }
    }

    private long chooseId()
    {
        while (leases.containsKey(nextId))
        {
            nextId++;
        }
        return nextId++;
    }

    /** A live lease most of the time, else an id that may not live. */
    private long someLease(final Random random)
    {
        if (!leases.isEmpty() && random.nextInt(5) != 0)
        {
            final Long[] ids = leases.keySet().toArray(new Long[0]);
            return ids[random.nextInt(ids.length)];
        }
        return 1 + random.nextInt(14);
    }

    private static void drain(final PullWatcher watcher, final List<Event> seen, final int expected, final String at)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (seen.size() < expected && System.nanoTime() < deadline)
        {
            seen.addAll(watcher.next(Duration.ofMillis(100)).events());
        }
        assertEquals(expected, seen.size(), at + ": events received");
    }

    /** A lease of the model: its id, granted TTL, deadline and keys in key order. */
    private static final class ModelLease
    {
        final long id;
        final long ttl;
        long deadline;
        final TreeSet<String> keys = new TreeSet<>();

        ModelLease(final long id, final long ttl, final long deadline)
        {
            this.id = id;
            this.ttl = ttl;
            this.deadline = deadline;
        }
    }
}
