package io.ringwatch.informer;

import io.ringwatch.engine.errors.EngineClosedException;
import io.ringwatch.engine.kv.RangeResult;
import io.ringwatch.engine.watch.PullWatcher;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

import java.time.Duration;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

/**
 * A handler admitted while the informer stops on its engine closing: the informer's loop (its
 * list fails with {@link EngineClosedException}, it clears {@code running}, then finishes every
 * handler and arrival) against {@link Reflector#admit} (add to the arrivals, then finish the
 * handler itself when {@code running} is already clear). Whichever wins, the handler must end
 * finished; one left fed would park its thread for ever. r1: 1 when the handler was finished.
 *
 * <p>In the jcstress module but in the informer's package: the reflector is package-private.
 * Each instance allocates a reflector, a handler's ring of 4 and an exception (few samples: a
 * sanity run on 2 cores gave 112, all {@code 1}). Planted bug, admit without its check: found in
 * one sanity run (43 of 112 samples {@code 0}).
 */
@JCStressTest
@Description("A handler admitted as the informer stops is always finished, never left fed.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "The handler was finished, by the loop or by admit.")
@Outcome(expect = FORBIDDEN, desc = "The handler is left fed by an informer that stopped: its thread parks for ever.")
@State
public class InformerAdmitStopStress
{
    private static final ListerWatcher CLOSED = new ListerWatcher()
    {
        @Override
        public RangeResult list()
        {
            throw new EngineClosedException("closed");
        }

        @Override
        public PullWatcher watch(final long fromRevision)
        {
            throw new EngineClosedException("closed");
        }
    };

    private final ErrorReporter errors = new ErrorReporter(e -> { });
    private final Reflector reflector = new Reflector(
        "stress", CLOSED, new CacheStore(), new MutationDetector(false, errors), errors, InformerConfig.builder().build());
    private final HandlerProcess handler = new HandlerProcess(
        "h", new ResourceEventHandler()
        {
            @Override
            public void onAdd(final CachedObject obj)
            {
            }

            @Override
            public void onUpdate(final CachedObject oldObj, final CachedObject newObj)
            {
            }

            @Override
            public void onDelete(final CachedObject obj)
            {
            }
        }, Duration.ZERO, 4, errors, 0, h -> { });

    /**
     * The informer's thread: its list fails as the engine closed, so it stops.
     */
    @Actor
    public void informer()
    {
        reflector.run();
    }

    /**
     * A caller adding a handler.
     */
    @Actor
    public void admit()
    {
        reflector.admit(handler);
    }

    /**
     * After both.
     */
    @Arbiter
    public void arbiter(final I_Result r)
    {
        r.r1 = handler.isFed() ? 0 : 1;
    }
}
