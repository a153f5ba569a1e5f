package io.ringwatch.server;

import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.etcd.jetcd.KV;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.DeleteResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.lease.LeaseKeepAliveResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.DeleteOption;
import io.etcd.jetcd.options.PutOption;
import io.etcd.jetcd.support.CloseableClient;
import io.grpc.stub.StreamObserver;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.engine.errors.LeaseNotFoundException;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.lease.LeaseTimeToLive;
import io.ringwatch.persistence.LogConfig;
import io.ringwatch.persistence.RevisionLog;
import io.ringwatch.persistence.VerifyReport;
import io.ringwatch.server.kv.EtcdLimits;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The server's SIGTERM promise for every kind of write, not only puts ({@link SigtermTest}):
 * {@link ServerMain} runs in a child JVM over a data directory while jetcd clients run nested
 * transactions that put and delete, DeleteRange of a prefix with prev_kv, and leases (grants of a
 * long TTL, some kept alive by open keep-alive streams and some revoked, and grants of the
 * shortest TTL, so that some expire about when the signal comes, each with keys put under it); at
 * a random moment the child gets SIGTERM. Each round alternates SYNC and ASYNC, and plaintext and
 * TLS (--cert-file/--key-file on an https listen URL). Then: the child exits with 143 within 30 s;
 * reopening its directory finds every acknowledged operation: a transaction's keys at its
 * revision (the key a later acknowledged transaction deleted gone), a deleted prefix empty, a
 * revoked lease and its keys gone, a lease granted and not revoked alive with every key put under
 * it; an operation without an answer is all there or all gone (a prefix deleted whole or not at
 * all, a lease with all its keys or none of them, whether it expired or was revoked); and the log
 * verifies. {@code -Dringwatch.long=true} runs more rounds, {@code -Dringwatch.seed} repeats one.
 */
class SigtermMixedOpsTest
{
    private static final int ROUNDS = Boolean.getBoolean("ringwatch.long") ? 8 : 2;
    private static final int TXN_WRITERS = 2;
    private static final long EXIT_BOUND_SECONDS = 30;
    private static final long OP_TIMEOUT_SECONDS = 10;
    private static final int KEYS_PER_GROUP = 3;
    /** Below the engine's least TTL: granted at that least TTL, so these leases end while the writes go on. */
    private static final long SHORT_TTL = 1;
    private static final long LONG_TTL = 120;

    @TempDir
    Path dir;

    @Test
    void sigtermLosesNoAcknowledgedTxnDeleteOrLeaseOperation() throws Exception
    {
        final long seed = Long.getLong("ringwatch.seed", System.nanoTime());
        final Random random = new Random(seed);
        final SelfSignedPem pem = SelfSignedPem.make(dir, "server");
        for (int round = 0; round < ROUNDS; round++)
        {
            final LogConfig.Durability durability = round % 2 == 0 ? LogConfig.Durability.SYNC : LogConfig.Durability.ASYNC;
            final boolean tls = round % 4 == 1 || round % 4 == 2;
            runRound(dir.resolve("round-" + round), durability, tls ? pem : null, random,
                "seed " + seed + " round " + round + " (" + durability + (tls ? ", TLS" : ", plaintext") + ")");
        }
    }

    private static void runRound(final Path roundDir, final LogConfig.Durability durability, final SelfSignedPem tls,
        final Random random, final String what) throws Exception
    {
        final Path dataDir = roundDir.resolve("data");
        Files.createDirectories(roundDir);
        final Path log = roundDir.resolve("server.log");
        final int port = ServerProcess.freePort();
        final String url = (tls == null ? "http" : "https") + "://127.0.0.1:" + port;
        final List<String> arguments = new ArrayList<>(List.of("--name", "sigterm-mixed", "--listen-client-urls", url,
            "--data-dir", dataDir.toString(), "--durability", durability.name()));
        if (tls != null)
        {
            arguments.addAll(List.of("--cert-file", tls.cert().toString(), "--key-file", tls.key().toString()));
        }
        final Process server = ServerProcess.start(arguments, log);
        final Ops ops = new Ops();
        try
        {
            ServerProcess.awaitListening(server, log);
            final ClientBuilder builder = Client.builder().endpoints(url)
                .waitForReady(false).retryMaxAttempts(1).retryMaxDuration(Duration.ofSeconds(2));
            if (tls != null)
            {
                builder.sslContext(ssl -> ssl.trustManager(tls.cert().toFile()));
            }
            try (Client client = builder.build())
            {
                final List<Thread> workers = new ArrayList<>();
                for (int w = 0; w < TXN_WRITERS; w++)
                {
                    final int writer = w;
                    workers.add(ops.writer("sigterm-txns-" + w, () -> ops.runTxns(client, writer)));
                }
                workers.add(ops.writer("sigterm-deletes", () -> ops.runDeletes(client)));
                final long leaseSeed = random.nextLong();
                workers.add(ops.writer("sigterm-leases", () -> ops.runLeases(client, leaseSeed)));
                workers.forEach(Thread::start);
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (server.isAlive() && !ops.enough() && ops.errors.isEmpty() && System.nanoTime() < deadline)
                {
                    Thread.sleep(5);
                }
                Thread.sleep(random.nextInt(1_000));
                final long signalled = System.nanoTime();
                server.destroy();
                final boolean exited = server.waitFor(EXIT_BOUND_SECONDS, TimeUnit.SECONDS);
                final long exitMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - signalled);
                assertTrue(exited, what + ": no exit within " + EXIT_BOUND_SECONDS + " s of SIGTERM; see " + log);
                assertEquals(ServerProcess.SIGTERM_EXIT_STATUS, server.exitValue(), what + ": exit status; see " + log);
                ops.stop.set(true);
                for (final Thread worker : workers)
                {
                    worker.join(TimeUnit.SECONDS.toMillis(EXIT_BOUND_SECONDS));
                    assertFalse(worker.isAlive(), what + ": " + worker.getName() + " never finished");
                }
                ops.keepAlives.forEach(CloseableClient::close);
                System.out.printf("%s: exited %d ms after SIGTERM; %s%n", what, exitMillis, ops.summary());
            }
        }
        finally
        {
            server.destroyForcibly();
        }
        if (!ops.errors.isEmpty())
        {
            throw new AssertionError(what + ": a writer failed", ops.errors.peek());
        }
        assertTrue(ops.enough(), what + ": too few operations acknowledged before SIGTERM: " + ops.summary() + "; see " + log);
        checkReopened(dataDir, durability, ops, what);
    }

    private static void checkReopened(final Path dataDir, final LogConfig.Durability durability, final Ops ops, final String what)
    {
        final RingWatch engine = RingWatch.open(EtcdLimits.applyTo(RingWatchConfig.builder().name("sigterm-mixed-check"),
            EtcdLimits.MAX_REQUEST_BYTES).persistence(LogConfig.builder(dataDir).durability(durability).build()).build());
        try
        {
            for (final List<Txn> txns : ops.txns)
            {
                checkTxns(engine, txns, what);
            }
            for (final Delete delete : ops.deletes)
            {
                checkDelete(engine, delete, what);
            }
            for (final Lease lease : ops.leases)
            {
                checkLease(engine, lease, what);
            }
        }
        finally
        {
            engine.close();
        }
        try (RevisionLog log = RevisionLog.openReadOnly(dataDir))
        {
            final VerifyReport report = log.verify();
            assertTrue(report.ok(), what + ": the log does not verify: " + report);
        }
    }

    /**
     * One writer's transactions, in order: each acknowledged one's keys a and c at its revision;
     * its key b there too unless the next transaction, which deletes it, was acknowledged (then gone)
     * or sent without an answer (then gone, or there at the revision).
     */
    private static void checkTxns(final RingWatch engine, final List<Txn> txns, final String what)
    {
        for (int i = 0; i < txns.size(); i++)
        {
            final Txn txn = txns.get(i);
            if (!txn.acknowledged)
            {
                final int found = engine.range(KeyRange.prefix(txn.prefix + "a"), 0).kvs().size() +
                    engine.range(KeyRange.prefix(txn.prefix + "c"), 0).kvs().size();
                assertTrue(found == 0 || found == 2, what + ": transaction " + txn.prefix + " applied in part: " + found + " of its puts");
                continue;
            }
            expectAt(engine, txn.prefix + "a", txn.revision, what);
            expectAt(engine, txn.prefix + "c", txn.revision, what);
            final Txn next = i + 1 < txns.size() ? txns.get(i + 1) : null;
            final List<io.ringwatch.engine.kv.KeyValue> b = engine.range(KeyRange.key(txn.prefix + "b"), 0).kvs();
            if (next != null && next.acknowledged)
            {
                assertEquals(0, b.size(), what + ": " + txn.prefix + "b, deleted by an acknowledged transaction, is back");
            }
            else if (next == null)
            {
                expectAt(engine, txn.prefix + "b", txn.revision, what);
            }
            else if (!b.isEmpty())
            {
                assertEquals(txn.revision, b.get(0).modRevision(), what + ": revision of " + txn.prefix + "b");
            }
        }
    }

    /** A prefix put whole by one transaction: there whole, deleted whole once acknowledged, never in part. */
    private static void checkDelete(final RingWatch engine, final Delete delete, final String what)
    {
        final int found = engine.range(KeyRange.prefix(delete.prefix), 0).kvs().size();
        if (delete.deleted)
        {
            assertEquals(0, found, what + ": keys of " + delete.prefix + " back after an acknowledged delete");
        }
        else if (delete.put && !delete.deleteSent)
        {
            assertEquals(KEYS_PER_GROUP, found, what + ": acknowledged keys of " + delete.prefix + " lost");
            for (final io.ringwatch.engine.kv.KeyValue kv : engine.range(KeyRange.prefix(delete.prefix), 0).kvs())
            {
                assertEquals(delete.putRevision, kv.modRevision(), what + ": revision of " + kv.keyAsString());
            }
        }
        else
        {
            assertTrue(found == 0 || found == KEYS_PER_GROUP, what + ": " + delete.prefix + " holds " + found + " keys: applied in part");
        }
    }

    /**
     * A lease: revoked with an answer, gone with its keys; granted, never revoked nor short, alive
     * with every key put under it; any other, alive with its keys or gone with all of them.
     */
    private static void checkLease(final RingWatch engine, final Lease lease, final String what)
    {
        final String prefix = "l/" + lease.id + "/";
        LeaseTimeToLive live;
        try
        {
            live = engine.leases().timeToLive(lease.id, true);
        }
        catch (final LeaseNotFoundException e)
        {
            live = null;
        }
        final List<io.ringwatch.engine.kv.KeyValue> kvs = engine.range(KeyRange.prefix(prefix), 0).kvs();
        if (lease.revoked)
        {
            assertEquals(null, live, what + ": revoked lease " + lease.id + " is back");
        }
        else if (!lease.revokeSent && !lease.shortTtl)
        {
            assertTrue(live != null, what + ": acknowledged lease " + lease.id + " lost");
        }
        if (live == null)
        {
            assertEquals(0, kvs.size(), what + ": lease " + lease.id + " ended, but " + kvs.size() + " of its keys live on");
            return;
        }
        final Set<String> leaseKeys = new HashSet<>();
        for (final byte[] key : live.keys())
        {
            leaseKeys.add(new String(key, StandardCharsets.UTF_8));
        }
        final Map<String, Long> found = new HashMap<>();
        for (final io.ringwatch.engine.kv.KeyValue kv : kvs)
        {
            assertEquals(lease.id, kv.lease(), what + ": lease of " + kv.keyAsString());
            found.put(kv.keyAsString(), kv.modRevision());
        }
        assertEquals(found.keySet(), leaseKeys, what + ": lease " + lease.id + "'s keys");
        for (final Map.Entry<String, Long> put : lease.puts.entrySet())
        {
            assertEquals(put.getValue(), found.get(put.getKey()), what + ": acknowledged put of " + put.getKey() + " under lease " + lease.id);
        }
    }

    private static void expectAt(final RingWatch engine, final String key, final long revision, final String what)
    {
        final List<io.ringwatch.engine.kv.KeyValue> kvs = engine.range(KeyRange.key(key), 0).kvs();
        assertEquals(1, kvs.size(), what + ": acknowledged " + key + " at " + revision + " lost");
        assertEquals(revision, kvs.get(0).modRevision(), what + ": revision of " + key);
    }

    private static ByteSequence bytes(final String text)
    {
        return ByteSequence.from(text, StandardCharsets.UTF_8);
    }

    /** A writer's loop. */
    @FunctionalInterface
    private interface Writer
    {
        void run() throws Exception;
    }

    /** A transaction of keys {@code prefix} a, b and c; acknowledged at {@code revision}. */
    private static final class Txn
    {
        final String prefix;
        volatile boolean acknowledged;
        volatile long revision;

        Txn(final String prefix)
        {
            this.prefix = prefix;
        }
    }

    /** Keys {@code prefix}0 to 2, put by one transaction, then deleted as a prefix with prev_kv. */
    private static final class Delete
    {
        final String prefix;
        volatile boolean put;
        volatile long putRevision;
        volatile boolean deleteSent;
        volatile boolean deleted;

        Delete(final String prefix)
        {
            this.prefix = prefix;
        }
    }

    /** A lease granted (acknowledged), the keys put under it (acknowledged, with revisions), its revoke. */
    private static final class Lease
    {
        final long id;
        final boolean shortTtl;
        final Map<String, Long> puts = new java.util.concurrent.ConcurrentHashMap<>();
        volatile boolean revokeSent;
        volatile boolean revoked;

        Lease(final long id, final boolean shortTtl)
        {
            this.id = id;
            this.shortTtl = shortTtl;
        }
    }

    /**
     * The writers: each runs one operation at a time until one fails (the server went away) or the
     * test stops them, recording what was sent and what was acknowledged.
     */
    private static final class Ops
    {
        final List<List<Txn>> txns = new ArrayList<>();
        final ConcurrentLinkedQueue<Delete> deletes = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<Lease> leases = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<CloseableClient> keepAlives = new ConcurrentLinkedQueue<>();
        final AtomicBoolean stop = new AtomicBoolean();
        /** What went wrong in a writer other than the server going away. */
        final ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();

        Ops()
        {
            for (int w = 0; w < TXN_WRITERS; w++)
            {
                txns.add(new java.util.concurrent.CopyOnWriteArrayList<>());
            }
        }

        /** Runs {@code writer} on a thread of its own, keeping what it threw. */
        Thread writer(final String name, final Writer writer)
        {
            return new Thread(() ->
            {
                try
                {
                    writer.run();
                }
                catch (final Throwable t)
                {
                    errors.add(t);
                }
            }, name);
        }

        boolean enough()
        {
            long acknowledgedTxns = 0;
            for (final List<Txn> writer : txns)
            {
                acknowledgedTxns += writer.stream().filter(t -> t.acknowledged).count();
            }
            return acknowledgedTxns >= 20 && deletes.stream().filter(d -> d.deleted).count() >= 5 &&
                leases.stream().filter(l -> l.revoked).count() >= 3 && leases.stream().filter(l -> l.shortTtl && l.puts.size() > 0).count() >= 3;
        }

        String summary()
        {
            int sent = 0;
            int acknowledged = 0;
            for (final List<Txn> writer : txns)
            {
                sent += writer.size();
                acknowledged += (int)writer.stream().filter(t -> t.acknowledged).count();
            }
            return String.format("txns %d/%d acknowledged, deletes %d/%d, leases %d granted (%d short, %d revoked, %d kept alive), %d puts under leases",
                acknowledged, sent, deletes.stream().filter(d -> d.deleted).count(), deletes.size(), leases.size(),
                leases.stream().filter(l -> l.shortTtl).count(), leases.stream().filter(l -> l.revoked).count(), keepAlives.size(),
                leases.stream().mapToInt(l -> l.puts.size()).sum());
        }

        /**
         * Transaction n: if {@code t/w/n/a} is absent, put a and b, then a nested transaction that
         * puts c and deletes the previous transaction's b.
         */
        void runTxns(final Client client, final int writer) throws InterruptedException
        {
            final KV kv = client.getKVClient();
            final List<Txn> mine = txns.get(writer);
            try
            {
                for (int n = 0; !stop.get(); n++)
                {
                    final String prefix = "t/" + writer + "/" + n + "/";
                    final Txn txn = new Txn(prefix);
                    mine.add(txn);
                    final Op[] nested = {
                        Op.put(bytes(prefix + "c"), bytes("c" + n), PutOption.DEFAULT),
                        Op.delete(bytes("t/" + writer + "/" + (n - 1) + "/b"), DeleteOption.DEFAULT)};
                    final TxnResponse response = kv.txn()
                        .If(new Cmp(bytes(prefix + "a"), Cmp.Op.EQUAL, CmpTarget.version(0)))
                        .Then(Op.put(bytes(prefix + "a"), bytes("a" + n), PutOption.DEFAULT),
                            Op.put(bytes(prefix + "b"), bytes("b" + n), PutOption.DEFAULT),
                            Op.txn(new Cmp[] {new Cmp(bytes(prefix + "c"), Cmp.Op.EQUAL, CmpTarget.version(0))}, nested, new Op[0]))
                        .commit().get(OP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    assertTrue(response.isSucceeded(), "transaction " + prefix + " failed its compare");
                    txn.revision = response.getHeader().getRevision();
                    txn.acknowledged = true;
                }
            }
            catch (final ExecutionException | TimeoutException e)
            {
                // The server went away: the last transaction has no answer.
            }
        }

        /** Puts keys d/n/0 to 2 in one transaction, then deletes the prefix with prev_kv. */
        void runDeletes(final Client client) throws InterruptedException
        {
            final KV kv = client.getKVClient();
            try
            {
                for (int n = 0; !stop.get(); n++)
                {
                    final Delete delete = new Delete("d/" + n + "/");
                    deletes.add(delete);
                    final Op[] puts = new Op[KEYS_PER_GROUP];
                    for (int k = 0; k < KEYS_PER_GROUP; k++)
                    {
                        puts[k] = Op.put(bytes(delete.prefix + k), bytes("d" + n + "-" + k), PutOption.DEFAULT);
                    }
                    final TxnResponse put = kv.txn().Then(puts).commit().get(OP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    delete.putRevision = put.getHeader().getRevision();
                    delete.put = true;
                    delete.deleteSent = true;
                    final DeleteResponse deleted = kv.delete(bytes(delete.prefix), DeleteOption.builder().isPrefix(true).withPrevKV(true).build())
                        .get(OP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                    assertEquals(KEYS_PER_GROUP, deleted.getDeleted(), "keys deleted under " + delete.prefix);
                    assertEquals(KEYS_PER_GROUP, deleted.getPrevKvs().size(), "prev_kvs of " + delete.prefix);
                    for (final KeyValue prev : deleted.getPrevKvs())
                    {
                        assertEquals(delete.putRevision, prev.getModRevision(), "prev_kv of " + prev.getKey());
                    }
                    delete.deleted = true;
                }
            }
            catch (final ExecutionException | TimeoutException e)
            {
                // The server went away: the last operation has no answer.
            }
        }

        /**
         * Grants leases in turn: every third of the least TTL, the others long, every fourth long one
         * kept alive by a keep-alive stream left open; puts keys under each, then revokes every other
         * long one.
         */
        void runLeases(final Client client, final long seed) throws InterruptedException
        {
            final Random random = new Random(seed);
            final KV kv = client.getKVClient();
            try
            {
                for (int n = 0; !stop.get(); n++)
                {
                    final boolean shortTtl = n % 3 == 0;
                    final long id = client.getLeaseClient().grant(shortTtl ? SHORT_TTL : LONG_TTL)
                        .get(OP_TIMEOUT_SECONDS, TimeUnit.SECONDS).getID();
                    final Lease lease = new Lease(id, shortTtl);
                    leases.add(lease);
                    if (!shortTtl && n % 4 == 1)
                    {
                        keepAlives.add(client.getLeaseClient().keepAlive(id, new StreamObserver<LeaseKeepAliveResponse>()
                        {
                            @Override
                            public void onNext(final LeaseKeepAliveResponse value)
                            {
                            }

                            @Override
                            public void onError(final Throwable t)
                            {
                            }

                            @Override
                            public void onCompleted()
                            {
                            }
                        }));
                    }
                    for (int k = 0; k < KEYS_PER_GROUP; k++)
                    {
                        final String key = "l/" + id + "/" + k;
                        final long revision;
                        try
                        {
                            revision = kv.put(bytes(key), bytes("v" + k), PutOption.builder().withLeaseId(id).build())
                                .get(OP_TIMEOUT_SECONDS, TimeUnit.SECONDS).getHeader().getRevision();
                        }
                        catch (final ExecutionException e)
                        {
                            if (shortTtl && String.valueOf(e.getCause().getMessage()).contains("lease not found"))
                            {
                                // The short lease ended first, as it may: on to the next one.
                                break;
                            }
                            throw e;
                        }
                        lease.puts.put(key, revision);
                    }
                    if (!shortTtl && random.nextBoolean())
                    {
                        lease.revokeSent = true;
                        client.getLeaseClient().revoke(id).get(OP_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                        lease.revoked = true;
                    }
                }
            }
            catch (final ExecutionException | TimeoutException e)
            {
                // The server went away: the last operation has no answer.
            }
        }
    }
}
