package io.ringwatch.perf.peer;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RoundRobinClientTest
{
    private static final EtcdClient.EventSink NO_EVENTS = new EtcdClient.EventSink()
    {
        @Override
        public void onEvent(final long intendedNanos, final long receivedNanos)
        {
        }

        @Override
        public void onError(final Throwable error)
        {
        }
    };

    @Test
    void putsGoToEachConnectionInTurn()
    {
        final List<CountingClient> connections = connections(3);
        final RoundRobinClient client = new RoundRobinClient(List.copyOf(connections));

        for (int i = 0; i < 7; i++)
        {
            client.put(new byte[] {(byte)i}, new byte[0], error -> { });
        }

        assertEquals(List.of(List.of(0, 3, 6), List.of(1, 4), List.of(2, 5)),
            connections.stream().map(connection -> connection.putKeys).toList());
    }

    @Test
    void watchesAreSpreadApartFromThePuts()
    {
        final List<CountingClient> connections = connections(4);
        final RoundRobinClient client = new RoundRobinClient(List.copyOf(connections));

        client.put(new byte[] {0}, new byte[0], error -> { });
        for (int i = 0; i < 8; i++)
        {
            client.watchPrefix(new byte[] {(byte)i}, 5, NO_EVENTS);
        }

        // The put moved the put counter only: the first watch still goes to the first connection.
        assertEquals(List.of(2, 2, 2, 2), connections.stream().map(connection -> connection.watches.get()).toList());
        assertEquals(List.of(0, 4), connections.get(0).watchPrefixes);
    }

    @Test
    void producersOnManyThreadsStillSpreadEvenly() throws InterruptedException
    {
        final List<CountingClient> connections = connections(4);
        final RoundRobinClient client = new RoundRobinClient(List.copyOf(connections));
        final int threads = 4;
        final int putsPerThread = 10_000;
        final CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++)
        {
            new Thread(() ->
            {
                for (int i = 0; i < putsPerThread; i++)
                {
                    client.put(new byte[] {0}, new byte[0], error -> { });
                }
                done.countDown();
            }).start();
        }

        assertTrue(done.await(30, TimeUnit.SECONDS), "producers hung");
        assertEquals(List.of(10_000, 10_000, 10_000, 10_000), connections.stream().map(connection -> connection.puts.get()).toList());
    }

    @Test
    void aPutsCallbackAndRevisionComeFromTheConnectionThatTookIt()
    {
        final List<CountingClient> connections = connections(2);
        final RoundRobinClient client = new RoundRobinClient(List.copyOf(connections));
        final AtomicReference<Throwable> answered = new AtomicReference<>();

        client.put(new byte[] {0}, new byte[0], error -> { });
        final CompletableFuture<Long> revision = client.put(new byte[] {1}, new byte[0], answered::set);

        assertEquals(2L, revision.join(), "the second connection's revision");
        assertSame(CountingClient.ANSWER, answered.get());
    }

    @Test
    void everyConnectionIsAskedForTheVersionAndClosedEvenWhenOneFailsToClose()
    {
        final List<CountingClient> connections = connections(3);
        connections.get(1).failClose = true;
        final RoundRobinClient client = new RoundRobinClient(List.copyOf(connections));

        assertEquals("v1", client.serverVersion());
        final IllegalStateException failed = assertThrows(IllegalStateException.class, client::close);

        assertEquals("close 2", failed.getMessage());
        assertEquals(List.of(1, 1, 1), connections.stream().map(connection -> connection.versions.get()).toList());
        assertEquals(List.of(true, true, true), connections.stream().map(connection -> connection.closed).toList());
        assertTrue(client.description().endsWith("on 3 connections (round-robin)"), client.description());
    }

    @Test
    void settingsOfOneConnectionOpenThePlainClientAndRefuseNoneOrNoPutsInFlight()
    {
        assertThrows(IllegalArgumentException.class, () -> new EtcdClientSettings(EtcdClientKind.GRPC, 0, 256));
        assertThrows(IllegalArgumentException.class, () -> new EtcdClientSettings(EtcdClientKind.GRPC, 4, 0));

        // grpc-java channels connect lazily: nothing is dialled here.
        try (EtcdClient one = new EtcdClientSettings(EtcdClientKind.GRPC, 1, 256).connect("http://127.0.0.1:1");
             EtcdClient four = new EtcdClientSettings(EtcdClientKind.GRPC, 4, 256).connect("http://127.0.0.1:1"))
        {
            assertTrue(one instanceof GrpcStubClient, one.getClass().getName());
            assertTrue(four instanceof RoundRobinClient, four.getClass().getName());
            assertEquals("grpc-java async stubs on 4 connections (round-robin)", four.description());
        }
    }

    private static List<CountingClient> connections(final int count)
    {
        final List<CountingClient> connections = new ArrayList<>();
        for (int i = 1; i <= count; i++)
        {
            connections.add(new CountingClient(i));
        }
        return connections;
    }

    /** A connection that records what it was given and answers each put at once with its own number. */
    private static final class CountingClient implements EtcdClient
    {
        static final Throwable ANSWER = new IllegalStateException("answered");

        final int number;
        final AtomicInteger puts = new AtomicInteger();
        final AtomicInteger watches = new AtomicInteger();
        final AtomicInteger versions = new AtomicInteger();
        final List<Integer> putKeys = new ArrayList<>();
        final List<Integer> watchPrefixes = new ArrayList<>();
        boolean failClose;
        boolean closed;

        CountingClient(final int number)
        {
            this.number = number;
        }

        @Override
        public String description()
        {
            return "counting " + number;
        }

        @Override
        public String serverVersion()
        {
            versions.incrementAndGet();
            return "v" + number;
        }

        @Override
        public synchronized CompletableFuture<Long> put(final byte[] key, final byte[] value, final PutDone done)
        {
            puts.incrementAndGet();
            putKeys.add((int)key[0]);
            done.done(number == 2 ? ANSWER : null);
            return CompletableFuture.completedFuture((long)number);
        }

        @Override
        public void watchPrefix(final byte[] prefix, final long fromRevision, final EventSink sink)
        {
            watches.incrementAndGet();
            watchPrefixes.add((int)prefix[0]);
        }

        @Override
        public void close()
        {
            closed = true;
            if (failClose)
            {
                throw new IllegalStateException("close " + number);
            }
        }
    }
}
