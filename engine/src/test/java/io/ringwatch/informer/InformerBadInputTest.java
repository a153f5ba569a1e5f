package io.ringwatch.informer;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.errors.InvalidRequestException;
import io.ringwatch.engine.kv.KeyRange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class InformerBadInputTest
{
    private final RingWatch engine = RingWatch.open();
    private final SharedInformer informer = SharedInformer.forRange(engine, KeyRange.all());

    @AfterEach
    void close()
    {
        informer.stop();
        engine.close();
    }

    @Test
    void aNullHandlerOrABadResyncPeriodIsRefusedAndNothingIsRegistered()
    {
        assertThrows(InvalidRequestException.class, () -> informer.addEventHandler(null));
        assertThrows(InvalidRequestException.class, () -> informer.addEventHandler(new RecordingHandler(), null));
        assertThrows(InvalidRequestException.class, () -> informer.addEventHandler(new RecordingHandler(), Duration.ofMillis(-1)));
        final RecordingHandler handler = new RecordingHandler();
        final HandlerRegistration registration = informer.addEventHandler(handler);
        assertEquals("handler-0", registration.name(), "refused handlers took no name");
    }

    @Test
    void startingTwiceIsRefusedAndTheInformerKeepsRunning()
    {
        informer.start();
        assertThrows(InformerAlreadyStartedException.class, informer::start);
        assertTrue(informer.isRunning());
    }

    @Test
    void afterStopStartAndAddingHandlersAreRefusedButStopAgainAndReadsAreFine()
    {
        engine.put("/a", "1");
        informer.start();
        assertTrue(Await.until(informer::hasSynced));
        final HandlerRegistration registration = informer.addEventHandler(new RecordingHandler());
        informer.stop();

        assertThrows(InformerStoppedException.class, informer::start);
        assertThrows(InformerStoppedException.class, () -> informer.addEventHandler(new RecordingHandler()));
        informer.stop();
        assertFalse(informer.isRunning());
        assertTrue(registration.isRemoved());
        assertEquals("1", informer.lister().get("/a").orElseThrow().valueAsString());
    }

    @Test
    void nullOrEmptyArgumentsAreRefusedWithTypedErrors()
    {
        assertThrows(InvalidRequestException.class, () -> new SharedInformer(null, InformerConfig.defaults()));
        assertThrows(InvalidRequestException.class, () -> new SharedInformer(new RangeListerWatcher(engine, KeyRange.all()), null));
        assertThrows(InvalidRequestException.class, () -> new RangeListerWatcher(null, KeyRange.all()));
        assertThrows(InvalidRequestException.class, () -> new RangeListerWatcher(engine, null));
        assertThrows(InvalidRequestException.class, () -> informer.lister().get((ObjectKey)null));
        assertThrows(InvalidRequestException.class, () -> informer.lister().get(new byte[0]));
        assertThrows(InvalidRequestException.class, () -> informer.lister().get((String)null));
        assertThrows(InvalidRequestException.class, () -> ObjectKey.of(""));
    }

    @Test
    void badConfigurationValuesAreRefused()
    {
        final InformerConfig.Builder builder = InformerConfig.builder();
        assertThrows(InvalidRequestException.class, () -> builder.name(" "));
        assertThrows(InvalidRequestException.class, () -> builder.handlerBufferCapacity(3));
        assertThrows(InvalidRequestException.class, () -> builder.handlerBufferCapacity(1));
        assertThrows(InvalidRequestException.class, () -> builder.pollBatchSize(0));
        assertThrows(InvalidRequestException.class, () -> builder.idleStrategy(null));
        assertThrows(InvalidRequestException.class, () -> builder.relistBackoff(Duration.ofMillis(2), Duration.ofMillis(1)));
        assertThrows(InvalidRequestException.class, () -> builder.relistBackoff(Duration.ZERO, Duration.ofMillis(1)));
        assertThrows(InvalidRequestException.class, () -> builder.detectMutations(Duration.ZERO));
        assertThrows(InvalidRequestException.class, () -> builder.errorHandler(null));
        assertThrows(InvalidRequestException.class, () -> builder.stopTimeout(null));
        final InformerConfig config = builder.build();
        assertEquals(InformerConfig.defaults().handlerBufferCapacity(), config.handlerBufferCapacity(), "refused values changed nothing");
        assertFalse(config.detectsMutations());
    }
}
