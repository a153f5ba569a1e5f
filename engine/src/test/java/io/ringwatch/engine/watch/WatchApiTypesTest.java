package io.ringwatch.engine.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.kv.KeyRange;
import org.junit.jupiter.api.Test;

class WatchApiTypesTest
{
    @Test
    void eventsReportTheWatchApisOwnTypeLiveAndInCopies() throws InterruptedException
    {
        try (RingWatch engine = RingWatch.open())
        {
            final PullWatcher watcher = engine.watchPull(WatchRequest.of(KeyRange.prefix("/t/")).startRevision(1));
            engine.put("/t/a", "1");
            engine.delete("/t/a");
            final List<EventType> live = new ArrayList<>();
            final List<EventType> copied = new ArrayList<>();
            final WatchListener listener = new WatchListener()
            {
                @Override
                public void onEvents(final EventBatch batch)
                {
                    for (final WatchEvent event : batch)
                    {
                        live.add(event.type());
                        copied.add(event.toEvent().type());
                    }
                }

                @Override
                public void onProgress(final long revision)
                {
                }

                @Override
                public void onCancelled(final WatchCancellation cancellation)
                {
                }
            };
            final long deadline = System.nanoTime() + 30_000_000_000L;
            while (live.size() < 2 && System.nanoTime() < deadline)
            {
                if (watcher.poll(listener, 10) == 0)
                {
                    Thread.sleep(1);
                }
            }
            assertEquals(List.of(EventType.PUT, EventType.DELETE), live);
            assertEquals(live, copied);
        }
    }

    @Test
    void noPublicSignatureOfTheWatchApiNamesARingbufferType() throws IOException, URISyntaxException
    {
        // The watch API is what users compile against; the ring's types are the engine's business.
        final Path here = Path.of(WatchEvent.class.getProtectionDomain().getCodeSource().getLocation().toURI())
            .resolve(WatchEvent.class.getPackageName().replace('.', '/'));
        final List<String> leaks = new ArrayList<>();
        int types = 0;
        try (Stream<Path> files = Files.list(here))
        {
            for (final Path file : (Iterable<Path>)files::iterator)
            {
                final String name = file.getFileName().toString();
                if (!name.endsWith(".class") || name.contains("$"))
                {
                    continue;
                }
                final Class<?> type = loadType(WatchEvent.class.getPackageName() + "." + name.substring(0, name.length() - 6));
                if (!Modifier.isPublic(type.getModifiers()))
                {
                    continue;
                }
                types++;
                for (final Method method : type.getMethods())
                {
                    final List<Type> named = new ArrayList<>(List.of(method.getGenericParameterTypes()));
                    named.add(method.getGenericReturnType());
                    for (final Type t : named)
                    {
                        if (t.getTypeName().contains("io.ringwatch.ringbuffer."))
                        {
                            leaks.add(type.getSimpleName() + "." + method.getName() + ": " + t.getTypeName());
                        }
                    }
                }
            }
        }
        assertTrue(types > 10, "found the watch API's public types: " + types);
        assertEquals(List.of(), leaks);
    }

    private static Class<?> loadType(final String name)
    {
        try
        {
            return Class.forName(name, false, WatchEvent.class.getClassLoader());
        }
        catch (final ClassNotFoundException e)
        {
            throw new IllegalStateException(e);
        }
    }
}
