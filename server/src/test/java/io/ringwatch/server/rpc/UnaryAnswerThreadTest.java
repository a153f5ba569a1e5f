package io.ringwatch.server.rpc;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.netty.channel.DefaultEventLoop;
import io.grpc.netty.shaded.io.netty.channel.EventLoop;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write completes on the engine's one writer thread whatever connection it came from; its
 * answer must be framed on the event loop its call started on ({@link CallThread}), so that the
 * writer does not frame every connection's responses. Deterministic: futures completed by hand.
 */
class UnaryAnswerThreadTest
{
    private final EventLoop loop = new DefaultEventLoop();

    @AfterEach
    void stopLoop() throws InterruptedException
    {
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);
    }

    @Test
    void aCallStartedOnAnEventLoopIsAnsweredOnThatLoopNotOnTheCompletingThread() throws Exception
    {
        final Recorder response = new Recorder();
        final CompletableFuture<String> write = new CompletableFuture<>();
        loop.submit(() -> Unary.answerLater(response, () -> write)).get(10, TimeUnit.SECONDS);

        final Thread writer = new Thread(() -> write.complete("put"), "writer");
        writer.start();
        writer.join(10_000);

        assertEquals("put", response.value.get(10, TimeUnit.SECONDS));
        assertTrue(response.onLoop, "answered on " + response.thread);
        // onCompleted follows onNext on the loop: wait for it rather than race it.
        response.completed.get(10, TimeUnit.SECONDS);
    }

    @Test
    void anErrorIsAnsweredOnTheLoopTooWithEtcdsStatus() throws Exception
    {
        final Recorder response = new Recorder();
        final CompletableFuture<String> write = new CompletableFuture<>();
        loop.submit(() -> Unary.answerLater(response, () -> write)).get(10, TimeUnit.SECONDS);

        write.completeExceptionally(EtcdErrors.keyNotFound());

        final Throwable error = response.error.get(10, TimeUnit.SECONDS);
        assertTrue(response.onLoop, "answered on " + response.thread);
        assertEquals(Status.Code.INVALID_ARGUMENT, ((StatusRuntimeException)error).getStatus().getCode());
        assertEquals("etcdserver: key not found", ((StatusRuntimeException)error).getStatus().getDescription());
    }

    @Test
    void aCallStartedOffAnyEventLoopIsAnsweredOnTheCompletingThreadAsBefore() throws Exception
    {
        final Recorder response = new Recorder();
        final CompletableFuture<String> write = new CompletableFuture<>();
        Unary.answerLater(response, () -> write);

        final Thread writer = new Thread(() -> write.complete("put"), "writer");
        writer.start();
        writer.join(10_000);

        assertEquals("put", response.value.get(10, TimeUnit.SECONDS));
        assertSame(writer, response.thread);
        assertNull(CallThread.current(), "the test thread is no event loop");
    }

    @Test
    void anAnswerAlreadyCompleteIsSentAtOnceWithoutATripThroughTheLoop() throws Exception
    {
        final Recorder response = new Recorder();
        final Thread[] caller = new Thread[1];
        loop.submit(() ->
        {
            caller[0] = Thread.currentThread();
            Unary.answerLater(response, () -> CompletableFuture.completedFuture("done"));
            // Sent before the call returned: no task was queued for later.
            assertTrue(response.value.isDone());
        }).get(10, TimeUnit.SECONDS);

        assertSame(caller[0], response.thread);
    }

    @Test
    void aLoopThatHasStoppedLeavesTheAnswerToTheCompletingThread() throws Exception
    {
        final Recorder response = new Recorder();
        final CompletableFuture<String> write = new CompletableFuture<>();
        loop.submit(() -> Unary.answerLater(response, () -> write)).get(10, TimeUnit.SECONDS);
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(10, TimeUnit.SECONDS);

        final Thread writer = new Thread(() -> write.complete("put"), "writer");
        writer.start();
        writer.join(10_000);

        assertEquals("put", response.value.get(10, TimeUnit.SECONDS));
        assertSame(writer, response.thread, "the writer must not see the loop's refusal");
    }

    /** Records what was sent, and where. */
    private final class Recorder implements StreamObserver<String>
    {
        final CompletableFuture<String> value = new CompletableFuture<>();
        final CompletableFuture<Throwable> error = new CompletableFuture<>();
        volatile Thread thread;
        volatile boolean onLoop;
        final CompletableFuture<Void> completed = new CompletableFuture<>();

        @Override
        public void onNext(final String next)
        {
            thread = Thread.currentThread();
            onLoop = loop.inEventLoop();
            value.complete(next);
        }

        @Override
        public void onError(final Throwable t)
        {
            thread = Thread.currentThread();
            onLoop = loop.inEventLoop();
            error.complete(t);
        }

        @Override
        public void onCompleted()
        {
            completed.complete(null);
        }
    }
}
