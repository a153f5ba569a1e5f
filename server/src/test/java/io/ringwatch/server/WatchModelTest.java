package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.PutOption;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.api.etcdserverpb.WatchCreateRequest;
import io.ringwatch.server.api.etcdserverpb.WatchResponse;
import io.ringwatch.server.api.mvccpb.Event;
import io.ringwatch.server.api.mvccpb.KeyValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static io.ringwatch.server.ServerFixture.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Watch semantics model-checked through the wire: random puts, deletes (single keys and ranges),
 * transactions and compactions go through jetcd to an in-process server while watches (prefix,
 * single key, a range; from now or from a past revision; with prev_kv or not; with a NOPUT or
 * NODELETE filter) open at random points on three raw watch streams. Every watch's events must
 * equal, in order, what {@link WatchModel} computes from the same operations (revisions, values,
 * versions, prev_kv: no gap, no duplicate, nothing extra), unless a compaction cancels it: then
 * what it got is a prefix of that, the cancel carries a compact_revision above everything it got
 * and no higher than a compaction that happened, and nothing follows the cancel. Seeded: a failure
 * names its seed; {@code -Dringwatch.watchModel.seed=N} runs one more seed.
 */
class WatchModelTest
{
    private static final int OPERATIONS = 400;
    private static final int MAX_WATCHES = 16;
    private static final int KEYS = 8;
    private static final int STREAMS = 3;

    @ParameterizedTest
    @ValueSource(longs = {1L, 20_261_125L, 0x5eed_cafeL})
    void everyWatchReceivesWhatTheModelComputes(final long seed) throws Exception
    {
        try (ServerFixture fixture = new ServerFixture(RingWatchConfig.builder().name("watch-model-" + seed).build()).start())
        {
            new Run(fixture, new Random(seed)).check();
        }
        catch (final AssertionError e)
        {
            throw new AssertionError("seed " + seed + " (rerun with -Dringwatch.watchModel.seed=" + seed + "): " + e.getMessage(), e);
        }
    }

    @Test
    void theSeedNamedOnTheCommandLine() throws Exception
    {
        final Long seed = Long.getLong("ringwatch.watchModel.seed");
        if (seed != null)
        {
            everyWatchReceivesWhatTheModelComputes(seed);
        }
    }

    /** One watch: what it covers, where it starts, what it has received so far and its cancel. */
    private static final class Watch
    {
        final long id;
        final RawWatchStream stream;
        final String from;
        final String to;
        final boolean prevKv;
        final boolean noPut;
        final boolean noDelete;
        /** The compact revision when the watch asked for a start below it (0: it did not). */
        final long compactedBelow;
        final List<String> received = new ArrayList<>();
        final List<Long> revisions = new ArrayList<>();
        /** The requested start revision, or for a watch from now the one its created response implies. */
        long startRevision;
        WatchResponse canceled;

        Watch(final long id, final RawWatchStream stream, final String from, final String to, final long startRevision,
            final boolean prevKv, final boolean noPut, final boolean noDelete, final long compactedBelow)
        {
            this.id = id;
            this.stream = stream;
            this.from = from;
            this.to = to;
            this.startRevision = startRevision;
            this.prevKv = prevKv;
            this.noPut = noPut;
            this.noDelete = noDelete;
            this.compactedBelow = compactedBelow;
        }

        String describe()
        {
            return "watch " + id + " of [" + from + ", " + to + ") from " + startRevision + (prevKv ? " prev_kv" : "")
                + (noPut ? " NOPUT" : "") + (noDelete ? " NODELETE" : "") + (compactedBelow != 0 ? " (compacted)" : "");
        }
    }

    /** One seed's run: the operations, the model, the watches. */
    private static final class Run
    {
        private final ServerFixture fixture;
        private final Random random;
        private final KV kv;
        private final WatchModel model;
        private final List<RawWatchStream> streams = new ArrayList<>();
        private final Map<Long, Watch> watches = new HashMap<>();
        private long highestCompaction;

        Run(final ServerFixture fixture, final Random random)
        {
            this.fixture = fixture;
            this.random = random;
            this.kv = fixture.client.getKVClient();
            this.model = new WatchModel(fixture.engine.currentRevision());
            for (int i = 0; i < STREAMS; i++)
            {
                streams.add(new RawWatchStream(fixture.channel, true));
            }
        }

        void check() throws Exception
        {
            openWatch();
            for (int i = 0; i < OPERATIONS; i++)
            {
                final int dice = random.nextInt(100);
                if (dice < 40)
                {
                    put();
                }
                else if (dice < 55)
                {
                    delete();
                }
                else if (dice < 62)
                {
                    deleteRange();
                }
                else if (dice < 80)
                {
                    txn();
                }
                else if (dice < 85)
                {
                    compact();
                }
                else if (dice < 90 && watches.size() < MAX_WATCHES)
                {
                    // About one operation in twenty: the watches open all along the run, not all at its start.
                    openWatch();
                }
                else
                {
                    put();
                }
                assertEquals(model.revision(), fixture.engine.currentRevision(), "the model and the engine agree on the revision");
            }
            awaitEveryWatch();
            for (final Watch watch : watches.values())
            {
                verify(watch);
            }
            for (final RawWatchStream stream : streams)
            {
                stream.close();
            }
        }

        private static String key(final int i)
        {
            return "m/" + i;
        }

        private String randomKey()
        {
            return key(random.nextInt(KEYS));
        }

        private void put() throws Exception
        {
            final String key = randomKey();
            final String value = "v" + random.nextInt(1000);
            final boolean prevKv = random.nextBoolean();
            kv.put(bytes(key), bytes(value), prevKv ? PutOption.builder().withPrevKV().build() : PutOption.DEFAULT).get();
            model.write(List.<String[]>of(new String[] {key, value}), List.of());
        }

        private void delete() throws Exception
        {
            final String key = randomKey();
            kv.delete(bytes(key)).get();
            model.write(List.of(), List.of(key));
        }

        private void deleteRange() throws Exception
        {
            final int a = random.nextInt(KEYS);
            final int b = a + 1 + random.nextInt(KEYS - a);
            final String from = key(a);
            final String to = key(b);
            final List<String> keys = model.keys(from, to);
            kv.delete(bytes(from), DeleteOption.builder().withRange(bytes(to)).build()).get();
            model.write(List.of(), keys);
        }

        private void txn() throws Exception
        {
            final String compared = randomKey();
            final String current = model.value(compared);
            final String guess = current != null && random.nextBoolean() ? current : "v" + random.nextInt(1000);
            final String first = randomKey();
            String second = randomKey();
            while (second.equals(first))
            {
                second = randomKey();
            }
            final String deleted = randomKey();
            final String value = "t" + random.nextInt(1000);
            final TxnResponse response = kv.txn()
                .If(new Cmp(bytes(compared), Cmp.Op.EQUAL, CmpTarget.value(bytes(guess))))
                .Then(Op.put(bytes(first), bytes(value), PutOption.DEFAULT), Op.put(bytes(second), bytes(value), PutOption.DEFAULT))
                .Else(Op.delete(bytes(deleted), DeleteOption.DEFAULT))
                .commit().get();
            final boolean holds = guess.equals(current);
            assertEquals(holds, response.isSucceeded(), "the compare on " + compared);
            if (holds)
            {
                model.write(List.of(new String[] {first, value}, new String[] {second, value}), List.of());
            }
            else
            {
                model.write(List.of(), List.of(deleted));
            }
        }

        private void compact() throws Exception
        {
            if (model.revision() <= model.compactRevision())
            {
                return;
            }
            final long at = model.compactRevision() + 1 + random.nextInt((int) (model.revision() - model.compactRevision()));
            kv.compact(at).get();
            model.compact(at);
            highestCompaction = at;
        }

        private void openWatch() throws InterruptedException
        {
            final long id = watches.size() + 1;
            final String from;
            final String to;
            switch (random.nextInt(3))
            {
                case 0:
                    from = "m/";
                    to = "m0";
                    break;
                case 1:
                    from = randomKey();
                    to = from + "\0";
                    break;
                default:
                    from = key(2);
                    to = key(5);
                    break;
            }
            final int when = random.nextInt(5);
            final long compactedBelow = when == 0 && model.compactRevision() > 1 ? model.compactRevision() : 0;
            final long requested;
            if (compactedBelow != 0)
            {
                requested = 1 + random.nextInt((int) compactedBelow - 1);
            }
            else if (when < 3 && model.revision() > model.compactRevision())
            {
                requested = model.compactRevision() + 1 + random.nextInt((int) (model.revision() - model.compactRevision()));
            }
            else
            {
                requested = 0;
            }
            final boolean prevKv = random.nextBoolean();
            final int filter = random.nextInt(4);
            final WatchCreateRequest.Builder create = WatchCreateRequest.newBuilder()
                .setKey(ByteString.copyFromUtf8(from))
                .setWatchId(id)
                .setStartRevision(requested)
                .setPrevKv(prevKv);
            if (!to.equals(from + "\0"))
            {
                create.setRangeEnd(ByteString.copyFromUtf8(to));
            }
            if (filter == 1)
            {
                create.addFilters(WatchCreateRequest.FilterType.NOPUT);
            }
            else if (filter == 2)
            {
                create.addFilters(WatchCreateRequest.FilterType.NODELETE);
            }
            final RawWatchStream stream = streams.get(random.nextInt(STREAMS));
            final Watch watch = new Watch(id, stream, from, to, requested, prevKv, filter == 1, filter == 2, compactedBelow);
            watches.put(id, watch);
            stream.create(create);
            WatchResponse created;
            do
            {
                created = stream.next();
                dispatch(created);
            }
            while (!(created.getCreated() && created.getWatchId() == id));
            final WatchResponse answer = created;
            assertFalse(answer.getCanceled(), () -> "watch " + id + " refused: " + answer.getCancelReason());
            // etcd: a watch from now starts after the revision its created response carries.
            if (requested == 0)
            {
                watch.startRevision = created.getHeader().getRevision() + 1;
            }
        }

        private void dispatch(final WatchResponse response)
        {
            final Watch watch = watches.get(response.getWatchId());
            if (watch == null || response.getCreated())
            {
                return;
            }
            assertTrue(watch.canceled == null, () -> "watch " + watch.id + " got a response after its cancel: " + response);
            if (response.getCanceled())
            {
                watch.canceled = response;
                return;
            }
            for (final Event event : response.getEventsList())
            {
                watch.received.add(render(event, watch.prevKv));
                watch.revisions.add(event.getKv().getModRevision());
            }
        }

        private void awaitEveryWatch() throws InterruptedException
        {
            for (final Watch watch : List.copyOf(watches.values()))
            {
                final int expected = expectedOf(watch).size();
                while (watch.canceled == null && watch.received.size() < expected)
                {
                    dispatch(watch.stream.next());
                }
            }
        }

        private List<WatchModel.Event> expectedOf(final Watch watch)
        {
            return model.expected(watch.from, watch.to, watch.startRevision, watch.noPut, watch.noDelete);
        }

        private void verify(final Watch watch)
        {
            final List<String> expected = new ArrayList<>();
            for (final WatchModel.Event event : expectedOf(watch))
            {
                expected.add(watch.prevKv ? event.withPrevKv() : event.withoutPrevKv());
            }
            final String name = watch.describe();
            final WatchResponse canceled = watch.canceled;
            if (watch.compactedBelow != 0)
            {
                // etcd: created, then canceled with the compact revision, and no event.
                assertTrue(canceled != null && watch.received.isEmpty(), () -> name + " got " + watch.received + ", cancel " + canceled);
                assertEquals(watch.compactedBelow, canceled.getCompactRevision(), name + ": the compact revision to resume from");
                return;
            }
            if (canceled == null)
            {
                assertEquals(expected, watch.received, name);
                return;
            }
            final int got = watch.received.size();
            if (got > expected.size())
            {
                fail(name + " received more than the model: " + watch.received + " vs " + expected);
            }
            assertEquals(expected.subList(0, got), watch.received, name + ": what a canceled watch got is a prefix");
            final long lastReceived = got == 0 ? watch.startRevision - 1 : watch.revisions.get(got - 1);
            final long compactRevision = canceled.getCompactRevision();
            assertTrue(compactRevision > lastReceived && compactRevision <= highestCompaction,
                () -> name + ": cancel at compact_revision " + compactRevision + " after revision " + lastReceived
                    + ", compactions up to " + highestCompaction + ": " + canceled);
        }

        private static String render(final Event event, final boolean prevKv)
        {
            final KeyValue kv = event.getKv();
            final String key = kv.getKey().toStringUtf8();
            final String text = event.getType() + " " + key + " " + WatchModel.text(kvOf(kv));
            if (!event.hasPrevKv())
            {
                return text;
            }
            return prevKv ? text + " prev=" + WatchModel.text(kvOf(event.getPrevKv())) : text + " UNASKED prev_kv";
        }

        private static WatchModel.Kv kvOf(final KeyValue kv)
        {
            return new WatchModel.Kv(kv.getValue().toStringUtf8(), kv.getCreateRevision(), kv.getModRevision(), kv.getVersion());
        }
    }
}
