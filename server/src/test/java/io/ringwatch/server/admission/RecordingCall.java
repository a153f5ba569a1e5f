package io.ringwatch.server.admission;

import io.grpc.Attributes;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.Status;

import java.util.ArrayList;
import java.util.List;

/** A server call that records what is asked of it, with the listener the gate gave back for it. */
final class RecordingCall<ReqT, RespT> extends ServerCall<ReqT, RespT>
{
    final List<Integer> requested = new ArrayList<>();
    final MethodDescriptor<ReqT, RespT> method;
    ServerCall.Listener<ReqT> listener;
    Status closedWith;

    RecordingCall(final MethodDescriptor<ReqT, RespT> method)
    {
        this.method = method;
    }

    @Override
    public void request(final int numMessages)
    {
        requested.add(numMessages);
    }

    @Override
    public void sendHeaders(final Metadata headers)
    {
    }

    @Override
    public void sendMessage(final RespT message)
    {
    }

    @Override
    public void close(final Status status, final Metadata trailers)
    {
        closedWith = status;
    }

    @Override
    public boolean isCancelled()
    {
        return false;
    }

    @Override
    public Attributes getAttributes()
    {
        return Attributes.EMPTY;
    }

    @Override
    public MethodDescriptor<ReqT, RespT> getMethodDescriptor()
    {
        return method;
    }
}
