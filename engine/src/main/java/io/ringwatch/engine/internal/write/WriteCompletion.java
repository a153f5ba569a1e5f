package io.ringwatch.engine.internal.write;

/**
 * Hands a finished command's result back to whoever waits for it. Called on the writer thread,
 * once per command, after the result fields are filled: it must copy what it needs and return
 * at once, since the slot is reused as soon as it returns.
 */
interface WriteCompletion
{
    /**
     * @param command the finished command, results filled (or {@code resultError} set).
     */
    void complete(WriteCommand command);
}
