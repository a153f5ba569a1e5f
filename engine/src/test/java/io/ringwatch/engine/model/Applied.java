package io.ringwatch.engine.model;

import io.ringwatch.engine.kv.Compare;
import io.ringwatch.engine.kv.KeyRange;
import io.ringwatch.engine.kv.KeyValue;
import io.ringwatch.engine.kv.Op;
import io.ringwatch.engine.kv.Txn;
import io.ringwatch.engine.kv.TxnResult;
import io.ringwatch.engine.kv.WriteResult;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One write a producer made and what the engine answered, replayable into the
 * {@link ReferenceModel}, which checks the answer.
 */
final class Applied
{
    private enum Kind
    {
        WRITE, CAS, TXN
    }

    private final Kind kind;
    private final Op op;
    private final long expected;
    private final Txn txn;
    private final WriteResult result;
    private final TxnResult txnResult;
    final long revision;

    private Applied(final Kind kind, final Op op, final long expected, final Txn txn, final WriteResult result, final TxnResult txnResult)
    {
        this.kind = kind;
        this.op = op;
        this.expected = expected;
        this.txn = txn;
        this.result = result;
        this.txnResult = txnResult;
        this.revision = result != null ? result.revision() : txnResult.revision();
    }

    static Applied write(final Op op, final WriteResult result)
    {
        return new Applied(Kind.WRITE, op, 0, null, result, null);
    }

    static Applied cas(final Op op, final long expected, final WriteResult result)
    {
        return new Applied(Kind.CAS, op, expected, null, result, null);
    }

    static Applied txn(final Txn txn, final TxnResult result)
    {
        return new Applied(Kind.TXN, null, 0, txn, null, result);
    }

    /** @return whether the engine says this write created a revision. */
    boolean changed()
    {
        switch (kind)
        {
            case CAS:
                return result.succeeded();
            case TXN:
                return true;
            default:
                return op.kind() == Op.Kind.PUT || result.deleted() > 0;
        }
    }

    /** Checks, against the state at {@link #revision}, that this write rightly changed nothing. */
    void checkUnchanged(final ReferenceModel model, final EngineModelTest test)
    {
        switch (kind)
        {
            case CAS:
                assertEquals(false, modRevision(model, op.key()) == expected,
                    test.why("compare-and-put " + op + " expecting " + expected + " failed at revision " + revision));
                break;
            default:
                assertEquals(0, model.countIn(op.range()), test.why(op + " deleted nothing at revision " + revision));
                break;
        }
    }

    /** Applies this write as the model's next revision and checks the engine's answer. */
    void applyTo(final ReferenceModel model, final EngineModelTest test)
    {
        final String at = " at revision " + revision;
        switch (kind)
        {
            case CAS:
                assertEquals(expected, modRevision(model, op.key()), test.why("compare-and-put " + op + " succeeded" + at));
                assertEquals(prevOf(model, op.key()), result.prevKvs(), test.why("prevKv of " + op + at));
                model.put(op.key(), op.value());
                break;
            case TXN:
                applyTxn(model, test, at);
                break;
            default:
                applyOp(model, test, op, result, at);
                break;
        }
    }

    private void applyTxn(final ReferenceModel model, final EngineModelTest test, final String at)
    {
        // As the engine (and etcd) does: the whole path first, on the state before the transaction.
        final List<Op> writes = new ArrayList<>();
        final List<WriteResult> results = new ArrayList<>();
        choosePath(model, test, txn, txnResult, writes, results, at);
        for (int i = 0; i < writes.size(); i++)
        {
            applyOp(model, test, writes.get(i), results.get(i), at);
        }
    }

    /** Checks the branch each (nested) transaction took and collects its writes with their results. */
    private static void choosePath(final ReferenceModel model, final EngineModelTest test, final Txn txn,
        final TxnResult result, final List<Op> writes, final List<WriteResult> results, final String at)
    {
        boolean holds = true;
        for (final Compare compare : txn.when())
        {
            final List<KeyValue> kvs = compare.range() == null ?
                (model.get(compare.key()) == null ? List.of() : List.of(model.get(compare.key()))) : model.range(compare.range());
            // etcd: over no key, as for one absent key; else every key must pass.
            holds &= kvs.isEmpty() ? compare.test(false, 0, 0, 0, null) : kvs.stream().allMatch(kv ->
                compare.test(true, kv.version(), kv.createRevision(), kv.modRevision(), kv.value()));
        }
        assertEquals(holds, result.succeeded(), test.why(txn + at));
        int own = 0;
        int nested = 0;
        for (final Op op : holds ? txn.then() : txn.orElse())
        {
            if (op.kind() == Op.Kind.TXN)
            {
                assertTrue(nested < result.nested().size(), test.why("nested results of " + txn + at));
                choosePath(model, test, op.nested(), result.nested().get(nested++), writes, results, at);
            }
            else
            {
                assertTrue(own < result.results().size(), test.why("results of " + txn + at));
                writes.add(op);
                results.add(result.results().get(own++));
            }
        }
        assertEquals(own, result.results().size(), test.why("results of " + txn + at));
        assertEquals(nested, result.nested().size(), test.why("nested results of " + txn + at));
    }

    private static void applyOp(final ReferenceModel model, final EngineModelTest test, final Op op, final WriteResult result, final String at)
    {
        assertEquals(model.pending(), result.revision(), test.why("revision of " + op + at));
        if (op.kind() == Op.Kind.PUT)
        {
            assertEquals(op.prevKv() ? prevOf(model, op.key()) : List.of(), result.prevKvs(), test.why("prevKv of " + op + at));
            model.put(op.key(), op.value());
            return;
        }
        final KeyRange range = op.range();
        final List<KeyValue> doomed = model.range(range);
        assertEquals(doomed.size(), result.deleted(), test.why("deleted count of " + op + at));
        assertEquals(op.prevKv() ? doomed : List.of(), result.prevKvs(), test.why("prevKvs of " + op + at));
        model.delete(range);
    }

    private static List<KeyValue> prevOf(final ReferenceModel model, final byte[] key)
    {
        final KeyValue prev = model.get(key);
        return prev == null ? List.of() : List.of(prev);
    }

    private static long modRevision(final ReferenceModel model, final byte[] key)
    {
        final KeyValue kv = model.get(key);
        return kv == null ? 0 : kv.modRevision();
    }
}
