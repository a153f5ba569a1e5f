package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.grpc.CallOptions;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.stub.ClientCalls;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad input over the wire: each gets an error, changes nothing, and the server goes on serving.
 */
class BadInputTest
{
    @RegisterExtension
    static final ServerFixture fixture = new ServerFixture();
    private static KVGrpc.KVBlockingStub kv;

    @BeforeAll
    static void start()
    {
        kv = KVGrpc.newBlockingStub(fixture.channel);
    }

    @Test
    void aKeyOverTheEnginesLimitIsRefused()
    {
        final long before = fixture.engine.currentRevision();
        final StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> kv.put(PutRequest.newBuilder()
            .setKey(ByteString.copyFrom(new byte[RingWatchConfig.defaults().maxKeyBytes() + 1])).setValue(ByteString.copyFromUtf8("v")).build()));
        assertEquals(Status.Code.INVALID_ARGUMENT, e.getStatus().getCode());
        assertEquals(before, fixture.engine.currentRevision());
        assertStillServing();
    }

    @Test
    void aMessageOverGrpcsLimitIsRefused()
    {
        final long before = fixture.engine.currentRevision();
        final StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> kv.put(PutRequest.newBuilder()
            .setKey(ByteString.copyFromUtf8("big")).setValue(ByteString.copyFrom(new byte[5 << 20])).build()));
        assertEquals(Status.Code.RESOURCE_EXHAUSTED, e.getStatus().getCode());
        assertEquals(before, fixture.engine.currentRevision());
        assertStillServing();
    }

    @Test
    void bytesThatAreNoRequestAreRefused()
    {
        final MethodDescriptor<byte[], byte[]> raw = KVGrpc.getPutMethod().toBuilder(new RawBytes(), new RawBytes()).build();
        final long before = fixture.engine.currentRevision();
        final StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> ClientCalls.blockingUnaryCall(
            fixture.channel, raw, CallOptions.DEFAULT, new byte[] {(byte)0xFF, (byte)0xFF, (byte)0xFF, 0x01, 0x7F}));
        // grpc-java fails a request it cannot parse before the service sees it (UNKNOWN; grpc-go,
        // etcd's, says INTERNAL): an error either way, and nothing reaches the engine.
        assertTrue(e.getStatus().getCode() == Status.Code.UNKNOWN || e.getStatus().getCode() == Status.Code.INTERNAL,
            () -> "unexpected " + e.getStatus());
        assertEquals(before, fixture.engine.currentRevision());
        assertStillServing();
    }

    @Test
    void aClientThatVanishesMidStreamLeavesNoWatcherBehind() throws Exception
    {
        final ManagedChannel doomed = NettyChannelBuilder.forAddress("127.0.0.1", fixture.server.port()).usePlaintext().build();
        final RawWatchStream stream = new RawWatchStream(doomed, true);
        for (int i = 1; i <= 10; i++)
        {
            stream.create("gone/" + i, "", i);
            assertTrue(stream.next().getCreated());
        }
        assertEquals(10, goneWatchers());
        fixture.engine.put("gone/1", "x");
        doomed.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(RawWatchStream.WAIT_SECONDS);
        while (goneWatchers() > 0 && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        assertEquals(0, goneWatchers(), "the server cancels the watches of a stream whose client is gone");
        assertStillServing();
    }

    private static long goneWatchers()
    {
        return fixture.engine.watchers().stream()
            .filter(w -> w.request().range().toString().startsWith("key(gone/") && w.cancelReason() == null)
            .count();
    }

    private static void assertStillServing()
    {
        final long revision = kv.put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("alive"))
            .setValue(ByteString.copyFromUtf8("yes")).build()).getHeader().getRevision();
        assertEquals(revision, kv.range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("alive")).build()).getKvs(0).getModRevision());
    }

    /** Sends and receives bytes as they are: how a client with a broken encoder looks to the server. */
    private static final class RawBytes implements MethodDescriptor.Marshaller<byte[]>
    {
        @Override
        public InputStream stream(final byte[] value)
        {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(final InputStream stream)
        {
            try
            {
                return stream.readAllBytes();
            }
            catch (final IOException e)
            {
                throw new UncheckedIOException(e);
            }
        }
    }
}
