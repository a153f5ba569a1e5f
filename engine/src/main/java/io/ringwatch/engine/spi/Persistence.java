package io.ringwatch.engine.spi;

import java.util.List;

/**
 * What {@code RingWatchConfig.Builder.persistence(...)} takes: a way to open the {@link Journal}
 * a persistent engine records every revision in, recovers from and lets watchers catch up from.
 * The Chronicle Queue implementation is {@code io.ringwatch.persistence.LogConfig}, in the
 * {@code io.ringwatch:ringwatch-persistence} artifact; the engine itself holds none.
 *
 * <p>Threads: {@link #openJournal} is called once per engine, on the thread that opens it, before
 * any engine thread starts. Ownership: the engine owns the journal it returns and closes it when it
 * closes, or when opening the engine fails after the journal was opened.
 */
@FunctionalInterface
public interface Persistence
{
    /**
     * Opens (or creates) the journal for one engine. Allocates whatever the journal keeps.
     *
     * @param engineName the engine's name; the journal's own threads start with it.
     * @return an open journal, owned by the engine from now on; never null (the engine refuses to
     * start rather than run in memory).
     * @throws RuntimeException a typed error of the implementation when its storage is unusable;
     *                          the engine then does not start.
     */
    Journal openJournal(String engineName);

    /**
     * The JVM flags this persistence needs beyond the engine's own, in command-line form, for the
     * running JDK; {@code RingWatch.open} checks them before {@link #openJournal} and refuses to
     * start without them ({@code io.ringwatch.engine.JvmFlags} lists the forms it can check). Any
     * thread.
     *
     * @return the flags; none by default.
     */
    default List<String> requiredJvmFlags()
    {
        return List.of();
    }
}
