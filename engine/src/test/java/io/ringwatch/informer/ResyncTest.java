package io.ringwatch.informer;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ResyncTest
{
    private static final KeyRange KEYS = KeyRange.prefix("/k/");

    private final RingWatch engine = RingWatch.open();
    private final SharedInformer informer = SharedInformer.forRange(engine, KEYS);

    @AfterEach
    void close()
    {
        informer.stop();
        engine.close();
    }

    @Test
    void aHandlerWithAResyncPeriodGetsEveryCachedObjectAgainAsAnUpdateOfItselfAndOthersDoNot()
    {
        for (int i = 0; i < 10; i++)
        {
            engine.put("/k/" + i, "v");
        }
        final RecordingHandler resyncing = new RecordingHandler();
        final RecordingHandler plain = new RecordingHandler();
        final HandlerRegistration registration = informer.addEventHandler(resyncing, Duration.ofMillis(20));
        final HandlerRegistration plainRegistration = informer.addEventHandler(plain);
        informer.start();

        assertTrue(Await.until(() -> resyncing.resyncs() >= 20), "at least two rounds of 10");
        assertEquals(Duration.ofMillis(20), registration.resyncPeriod());
        assertEquals(Duration.ZERO, plainRegistration.resyncPeriod());
        assertEquals(List.of(), resyncing.violations(), "a resync passes the cached object as both old and new");
        assertEquals(InformerTestState.engine(engine, KEYS), resyncing.state());
        assertTrue(resyncing.log().stream().filter(l -> l.startsWith("resync")).allMatch(l -> l.endsWith("=v")));
        assertEquals(0, plain.resyncs());
        assertEquals(10, plain.notifications());
    }
}
