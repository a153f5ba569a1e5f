package io.ringwatch.engine.lease;

import io.ringwatch.engine.spi.Journal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A journal whose one named method throws as a full disk would, once armed; every other call goes
 * to the real journal. For tests of a journal failing in the middle of a lease command.
 */
final class FailingJournal
{
    private FailingJournal()
    {
    }

    /**
     * @param journal the real journal.
     * @param failing the name of the {@link Journal} method that fails.
     * @param armed   set to make it fail from then on.
     * @return the journal.
     */
    static Journal failing(final Journal journal, final String failing, final AtomicBoolean armed)
    {
        final InvocationHandler handler = (proxy, method, args) ->
        {
            if (armed.get() && failing.equals(method.getName()))
            {
                throw new UncheckedIOException(new IOException("No space left on device (test)"));
            }
            try
            {
                return method.invoke(journal, args);
            }
            catch (final InvocationTargetException ex)
            {
                throw ex.getCause();
            }
        };
        return (Journal)Proxy.newProxyInstance(Journal.class.getClassLoader(), new Class<?>[] {Journal.class}, handler);
    }
}
