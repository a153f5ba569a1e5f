package io.ringwatch.baseline;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class LockedWatchStoreTest
{
    private static byte[] bytes(final String text)
    {
        return text.getBytes(US_ASCII);
    }

    private static List<String> keysOf(final List<ChangeEvent> events)
    {
        final List<String> keys = new ArrayList<>();
        for (final ChangeEvent event : events)
        {
            keys.add(new String(event.key(), US_ASCII) + "@" + event.modRevision());
        }
        return keys;
    }

    @ParameterizedTest
    @EnumSource(Routing.class)
    void putsTakeConsecutiveRevisionsAndKeepTheCreateRevisionAndVersionOfAKey(final Routing routing)
        throws InterruptedException
    {
        final LockedWatchStore store = new LockedWatchStore(routing);
        final List<ChangeEvent> events = new ArrayList<>();
        store.watchPrefix(new byte[0], events::add);

        assertEquals(1, store.put(bytes("a"), bytes("1")));
        assertEquals(2, store.put(bytes("b"), bytes("2")));
        assertEquals(3, store.put(bytes("a"), bytes("3")));

        assertEquals(3, store.currentRevision());
        final ChangeEvent update = events.get(2);
        assertEquals(1, update.createRevision());
        assertEquals(3, update.modRevision());
        assertEquals(2, update.version());
        assertArrayEquals(bytes("3"), update.value());
    }

    @ParameterizedTest
    @EnumSource(Routing.class)
    void eachWatcherReceivesExactlyTheKeysItWatchesInRevisionOrder(final Routing routing) throws InterruptedException
    {
        final LockedWatchStore store = new LockedWatchStore(routing);
        final List<ChangeEvent> prefixEvents = new ArrayList<>();
        final List<ChangeEvent> keyEvents = new ArrayList<>();
        final List<ChangeEvent> otherEvents = new ArrayList<>();
        store.watchPrefix(bytes("app/"), prefixEvents::add);
        store.watchKey(bytes("app/x"), keyEvents::add);
        store.watchKey(bytes("app"), otherEvents::add);

        store.put(bytes("app/x"), bytes("1"));
        store.put(bytes("other/x"), bytes("2"));
        store.put(bytes("app/y"), bytes("3"));
        store.put(bytes("app/x"), bytes("4"));

        assertEquals(List.of("app/x@1", "app/y@3", "app/x@4"), keysOf(prefixEvents));
        assertEquals(List.of("app/x@1", "app/x@4"), keysOf(keyEvents));
        assertEquals(List.of(), keysOf(otherEvents));
    }

    @ParameterizedTest
    @EnumSource(Routing.class)
    void aWatcherThatRefusesAnEventIsRemovedAndTheOthersStillReceiveIt(final Routing routing)
        throws InterruptedException
    {
        final LockedWatchStore store = new LockedWatchStore(routing);
        final List<ChangeEvent> refused = new ArrayList<>();
        final List<ChangeEvent> kept = new ArrayList<>();
        store.watchPrefix(bytes("k"), event -> refused.add(event) && false);
        store.watchPrefix(bytes("k"), kept::add);

        store.put(bytes("k1"), bytes("v"));
        store.put(bytes("k2"), bytes("v"));

        assertEquals(List.of("k1@1"), keysOf(refused));
        assertEquals(List.of("k1@1", "k2@2"), keysOf(kept));
    }

    @Test
    void aPutKeepsCopiesSoTheCallerMayReuseItsArrays() throws InterruptedException
    {
        final LockedWatchStore store = new LockedWatchStore(Routing.HASHED);
        final List<ChangeEvent> events = new ArrayList<>();
        store.watchKey(bytes("key"), events::add);
        final byte[] key = bytes("key");
        final byte[] value = bytes("one");

        store.put(key, value);
        value[0] = 'X';
        store.put(key, value);

        assertArrayEquals(bytes("one"), events.get(0).value());
        assertEquals(2, events.get(1).version());
    }

    @Test
    void aNullArgumentIsRejectedAndChangesNothing()
    {
        final LockedWatchStore store = new LockedWatchStore(Routing.LINEAR_SCAN);

        assertThrows(NullPointerException.class, () -> new LockedWatchStore(null));
        assertThrows(NullPointerException.class, () -> store.watchPrefix(bytes("p"), null));
        assertThrows(NullPointerException.class, () -> store.put(null, bytes("v")));
        assertEquals(0, store.currentRevision());
    }
}
