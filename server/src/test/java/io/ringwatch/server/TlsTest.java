package io.ringwatch.server;

import com.google.protobuf.ByteString;
import io.grpc.ManagedChannel;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.GrpcSslContexts;
import io.grpc.netty.shaded.io.grpc.netty.NettyChannelBuilder;
import io.grpc.netty.shaded.io.netty.handler.ssl.SslContextBuilder;
import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.server.api.etcdserverpb.KVGrpc;
import io.ringwatch.server.api.etcdserverpb.PutRequest;
import io.ringwatch.server.api.etcdserverpb.RangeRequest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * TLS through Netty: a server certificate, and client-certificate authentication. The self-signed
 * certificates are made in the test by the JDK's keytool and written as PEM ({@link SelfSignedPem}).
 */
class TlsTest
{
    @TempDir
    static Path dir;

    private static RingWatch engine;
    private static RingWatchServer server;
    private static SelfSignedPem serverPem;
    private static SelfSignedPem clientPem;

    @BeforeAll
    static void start() throws Exception
    {
        serverPem = SelfSignedPem.make(dir, "server");
        clientPem = SelfSignedPem.make(dir, "client");
        engine = RingWatch.open(RingWatchConfig.builder().name("tls-test").build());
        server = RingWatchServer.start(engine, ServerOptions.builder()
            .listenClientUrl(URI.create("https://127.0.0.1:0"))
            .tls(serverPem.cert(), serverPem.key())
            .trustedCaFile(clientPem.cert())
            .clientCertAuth(true)
            .build());
    }

    @AfterAll
    static void stop()
    {
        server.close();
        engine.close();
    }

    @Test
    void aClientWithATrustedCertificateIsServed() throws Exception
    {
        final ManagedChannel channel = channel(GrpcSslContexts.forClient().trustManager(serverPem.cert().toFile())
            .keyManager(clientPem.cert().toFile(), clientPem.key().toFile()));
        try
        {
            final KVGrpc.KVBlockingStub kv = KVGrpc.newBlockingStub(channel);
            kv.put(PutRequest.newBuilder().setKey(ByteString.copyFromUtf8("tls/a")).setValue(ByteString.copyFromUtf8("1")).build());
            assertEquals("1", kv.range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("tls/a")).build()).getKvs(0).getValue().toStringUtf8());
        }
        finally
        {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aClientWithoutACertificateIsRefused() throws Exception
    {
        final ManagedChannel channel = channel(GrpcSslContexts.forClient().trustManager(serverPem.cert().toFile()));
        try
        {
            final StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> KVGrpc.newBlockingStub(channel)
                .range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("tls/a")).build()));
            assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
        }
        finally
        {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void aPlaintextClientIsRefused() throws Exception
    {
        final ManagedChannel channel = NettyChannelBuilder.forAddress("127.0.0.1", server.port()).usePlaintext().build();
        try
        {
            final StatusRuntimeException e = assertThrows(StatusRuntimeException.class, () -> KVGrpc.newBlockingStub(channel)
                .withDeadlineAfter(10, TimeUnit.SECONDS).range(RangeRequest.newBuilder().setKey(ByteString.copyFromUtf8("tls/a")).build()));
            assertEquals(Status.Code.UNAVAILABLE, e.getStatus().getCode());
        }
        finally
        {
            channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    private static ManagedChannel channel(final SslContextBuilder ssl) throws IOException
    {
        return NettyChannelBuilder.forAddress("127.0.0.1", server.port()).sslContext(ssl.build()).build();
    }
}
