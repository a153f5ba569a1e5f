package io.ringwatch.server.admission;

import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.Status;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gate on made-up calls and revisions: a write's request for its message waits while the
 * limit leaves no room and goes through once it does; writes let through count against the limit
 * until they end; a held write the client cancels leaves the queue at once; reads never wait; past
 * the bound on held calls a write is refused with etcd's overload error and its handler never runs.
 */
class WriteGateTest
{
    private long revision = 10;
    private final WriteGate gate = new WriteGate(() -> revision, 2);

    @Test
    void aWriteWaitsWhileTheGateIsShutAndGoesOnWhenItOpens()
    {
        final RecordingCall<?, ?> put = startPut(gate);
        assertEquals(List.of(2), put.requested, "an unlimited gate passes the request at once");

        gate.admitThrough(WriteGate.SHUT);
        final RecordingCall<?, ?> txn = start(gate, KVGrpc.getTxnMethod());
        final RecordingCall<?, ?> delete = start(gate, KVGrpc.getDeleteRangeMethod());
        assertEquals(List.of(), txn.requested, "a shut gate holds the write");
        assertEquals(List.of(), delete.requested);
        assertEquals(2, gate.heldNow());

        gate.admitThrough(WriteGate.UNLIMITED);
        assertEquals(List.of(2), txn.requested, "opening releases every held write");
        assertEquals(List.of(2), delete.requested);
        assertEquals(0, gate.heldNow());
        assertEquals(2, gate.heldTotal());
    }

    @Test
    void writesPassingCountAgainstTheLimitUntilTheyEnd()
    {
        gate.admitThrough(revision + 2);
        final RecordingCall<?, ?> first = startPut(gate);
        final RecordingCall<?, ?> second = startPut(gate);
        final RecordingCall<?, ?> third = startPut(gate);
        assertEquals(List.of(2), first.requested);
        assertEquals(List.of(2), second.requested);
        assertEquals(List.of(), third.requested, "two revisions of room, two writes passing: the third waits");
        assertEquals(2, gate.passing());

        revision++;
        first.listener.onComplete();
        assertEquals(List.of(), third.requested, "the first write took its revision: still no room");
        second.listener.onCancel();
        assertEquals(List.of(2), third.requested, "the second ended without a revision: room for the third");
        assertEquals(1, gate.passing());
    }

    @Test
    void aWriteCancelledWhileHeldIsNeverCounted()
    {
        gate.admitThrough(WriteGate.SHUT);
        final RecordingCall<?, ?> put = startPut(gate);
        put.listener.onCancel();
        gate.admitThrough(WriteGate.UNLIMITED);
        assertEquals(0, gate.passing(), "released after it ended: it never passes");
    }

    @Test
    void aWriteCancelledWhileHeldLeavesTheQueueAndFreesItsPlaceAtOnce()
    {
        gate.admitThrough(WriteGate.SHUT);
        final RecordingCall<?, ?> cancelled = startPut(gate);
        final RecordingCall<?, ?> kept = startPut(gate);

        cancelled.listener.onCancel();

        assertEquals(1, gate.heldNow(), "the cancelled call no longer counts toward the bound");
        final RecordingCall<?, ?> next = startPut(gate);
        assertNull(next.closedWith, "its place holds the next write instead of refusing it");
        assertEquals(0, gate.refused());
        assertEquals(2, gate.heldNow());
        gate.admitThrough(WriteGate.UNLIMITED);
        assertEquals(List.of(), cancelled.requested, "a cancelled call is never let through");
        assertEquals(List.of(2), kept.requested);
        assertEquals(List.of(2), next.requested);
        assertEquals(2, gate.passing());
    }

    @Test
    void aRequestMadeAfterItsCallWasCancelledIsNotHeld()
    {
        gate.admitThrough(WriteGate.SHUT);
        final List<ServerCall<?, ?>> handed = new ArrayList<>();
        final RecordingCall<?, ?> call = startAskingLater(gate, handed);

        call.listener.onCancel();
        handed.get(0).request(2);

        assertEquals(0, gate.heldNow());
        gate.admitThrough(WriteGate.UNLIMITED);
        assertEquals(List.of(), call.requested);
    }

    @Test
    void readsAndCompactionsNeverWait()
    {
        gate.admitThrough(WriteGate.SHUT);
        final RecordingCall<?, ?> range = start(gate, KVGrpc.getRangeMethod());
        final RecordingCall<?, ?> compact = start(gate, KVGrpc.getCompactMethod());
        assertEquals(List.of(2), range.requested);
        assertEquals(List.of(2), compact.requested);
        assertEquals(0, gate.heldNow());
    }

    @Test
    void pastTheBoundAWriteIsRefusedWithEtcdsOverloadError()
    {
        gate.admitThrough(WriteGate.SHUT);
        startPut(gate);
        startPut(gate);
        final List<ServerCall<?, ?>> handed = new ArrayList<>();
        final RecordingCall<?, ?> third = startAskingLater(gate, handed);
        assertTrue(handed.isEmpty(), "the handler of a refused write never runs");
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, third.closedWith.getCode());
        assertEquals(WriteGate.TOO_MANY_REQUESTS, third.closedWith.getDescription());
        assertEquals(1, gate.refused());

        gate.close();
        final RecordingCall<?, ?> after = startPut(gate);
        assertEquals(List.of(2), after.requested, "a closed gate lets everything through");
        assertNull(after.closedWith);
    }

    static RecordingCall<?, ?> startPut(final WriteGate gate)
    {
        return start(gate, KVGrpc.getPutMethod());
    }

    /**
     * Starts a put whose handler asks for no message yet: it hands the call the gate gave it to
     * {@code handed}, to ask later.
     */
    private static RecordingCall<?, ?> startAskingLater(final WriteGate gate, final List<ServerCall<?, ?>> handed)
    {
        final var call = new RecordingCall<>(KVGrpc.getPutMethod());
        call.listener = gate.interceptCall(call, new Metadata(), (gated, headers) ->
        {
            handed.add(gated);
            return new ServerCall.Listener<>()
            {
            };
        });
        return call;
    }

    /** Starts a call as gRPC's unary handler does: it asks for two messages (to catch a second). */
    private static <ReqT, RespT> RecordingCall<ReqT, RespT> start(final WriteGate gate, final MethodDescriptor<ReqT, RespT> method)
    {
        final RecordingCall<ReqT, RespT> call = new RecordingCall<>(method);
        final ServerCallHandler<ReqT, RespT> unary = (started, headers) ->
        {
            started.request(2);
            return new ServerCall.Listener<>()
            {
            };
        };
        call.listener = gate.interceptCall(call, new Metadata(), unary);
        return call;
    }
}
