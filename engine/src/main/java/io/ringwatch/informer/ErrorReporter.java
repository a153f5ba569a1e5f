package io.ringwatch.informer;

/**
 * Hands failures to the user's {@link InformerErrorHandler}, so that a handler of errors that
 * throws, an {@link Error} included, can never take an informer thread down with it.
 */
final class ErrorReporter
{
    private final InformerErrorHandler handler;

    ErrorReporter(final InformerErrorHandler handler)
    {
        this.handler = handler;
    }

    void report(final Throwable error)
    {
        try
        {
            handler.onError(error);
        }
        catch (final RuntimeException | Error ignore)
        {
            // The error handler is the end of the line: there is nobody left to tell.
        }
    }
}
