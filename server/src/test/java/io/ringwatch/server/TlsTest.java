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

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * TLS through Netty: a server certificate, and client-certificate authentication. The self-signed
 * certificates are made in the test by the JDK's keytool and written as PEM.
 */
class TlsTest
{
    @TempDir
    static Path dir;

    private static RingWatch engine;
    private static RingWatchServer server;
    private static Pem serverPem;
    private static Pem clientPem;

    @BeforeAll
    static void start() throws Exception
    {
        serverPem = selfSigned("server");
        clientPem = selfSigned("client");
        engine = RingWatch.open(RingWatchConfig.builder().name("tls-test").build());
        server = RingWatchServer.start(engine, ServerOptions.builder()
            .listenClientUrl(URI.create("https://127.0.0.1:0"))
            .tls(serverPem.cert, serverPem.key)
            .trustedCaFile(clientPem.cert)
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
        final ManagedChannel channel = channel(GrpcSslContexts.forClient().trustManager(serverPem.cert.toFile())
            .keyManager(clientPem.cert.toFile(), clientPem.key.toFile()));
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
        final ManagedChannel channel = channel(GrpcSslContexts.forClient().trustManager(serverPem.cert.toFile()));
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

    /** A PEM certificate and its PKCS#8 key. */
    private static final class Pem
    {
        final Path cert;
        final Path key;

        Pem(final Path cert, final Path key)
        {
            this.cert = cert;
            this.key = key;
        }
    }

    private static Pem selfSigned(final String name) throws Exception
    {
        final Path store = dir.resolve(name + ".p12");
        final char[] password = "changeit".toCharArray();
        final Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
            "-genkeypair", "-alias", name, "-keyalg", "EC", "-groupname", "secp256r1", "-validity", "2",
            "-dname", "CN=" + name, "-ext", "SAN=IP:127.0.0.1,DNS:localhost", "-keystore", store.toString(),
            "-storetype", "PKCS12", "-storepass", new String(password), "-keypass", new String(password))
            .redirectErrorStream(true).start();
        final String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (keytool.waitFor() != 0)
        {
            throw new IllegalStateException("keytool failed: " + output);
        }
        final KeyStore keyStore = KeyStore.getInstance("PKCS12");
        try (InputStream in = new FileInputStream(store.toFile()))
        {
            keyStore.load(in, password);
        }
        final Certificate certificate = keyStore.getCertificate(name);
        final Path cert = dir.resolve(name + ".crt");
        final Path key = dir.resolve(name + ".key");
        Files.write(cert, pem("CERTIFICATE", certificate.getEncoded()));
        Files.write(key, pem("PRIVATE KEY", keyStore.getKey(name, password).getEncoded()));
        return new Pem(cert, key);
    }

    private static List<String> pem(final String type, final byte[] der)
    {
        return List.of("-----BEGIN " + type + "-----",
            Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der),
            "-----END " + type + "-----");
    }
}
