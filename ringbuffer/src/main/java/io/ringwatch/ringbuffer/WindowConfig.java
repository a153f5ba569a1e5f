package io.ringwatch.ringbuffer;

import java.util.concurrent.TimeUnit;

import org.agrona.BitUtil;

/**
 * Immutable settings of a {@link WatchWindow}: capacity bounds (in events), the freshness that
 * drives resizing, the largest event and the hint that sizes the data ring. Build one with
 * {@link #builder()}; {@link #defaults()} gives the defaults.
 * <p>
 * Threading: immutable, any thread. Allocation: only when built.
 */
public final class WindowConfig
{
    /** Default lower capacity bound, in events. */
    public static final int DEFAULT_MIN_CAPACITY = 1024;
    /** Default upper capacity bound, in events. */
    public static final int DEFAULT_MAX_CAPACITY = 131_072;
    /** Default freshness: 75 s, the Kubernetes watch cache's eventFreshDuration. */
    public static final long DEFAULT_FRESHNESS_NANOS = TimeUnit.SECONDS.toNanos(75);
    /** Default limit on key + value + previous value bytes of one event. */
    public static final int DEFAULT_MAX_EVENT_BYTES = 64 * 1024;
    /** Default expected bytes per event, used to size the data ring. */
    public static final int DEFAULT_DATA_BYTES_PER_EVENT = 256;

    /** Smallest lower bound: the shrink rule looks a quarter of the capacity back. */
    public static final int MIN_CAPACITY_FLOOR = 4;
    /** Largest upper bound: keeps slot metadata within one int-addressed buffer. */
    public static final int MAX_CAPACITY_CEILING = 1 << 24;
    /** Largest data ring one generation may need. */
    public static final int MAX_DATA_CAPACITY = 1 << 30;

    private final int minCapacity;
    private final int maxCapacity;
    private final long freshnessNanos;
    private final int maxEventBytes;
    private final int dataBytesPerEvent;

    private WindowConfig(final Builder builder)
    {
        minCapacity = builder.minCapacity;
        maxCapacity = builder.maxCapacity;
        freshnessNanos = builder.freshnessNanos;
        maxEventBytes = builder.maxEventBytes;
        dataBytesPerEvent = builder.dataBytesPerEvent;
    }

    /**
     * A new builder holding the defaults. Any thread; allocates the builder.
     *
     * @return a builder.
     */
    public static Builder builder()
    {
        return new Builder();
    }

    /**
     * The default configuration. Any thread; allocates it.
     *
     * @return a config with every default.
     */
    public static WindowConfig defaults()
    {
        return builder().build();
    }

    /**
     * Lower capacity bound; also the initial capacity. Any thread; no allocation.
     *
     * @return a power of two, in events.
     */
    public int minCapacity()
    {
        return minCapacity;
    }

    /**
     * Upper capacity bound. Any thread; no allocation.
     *
     * @return a power of two, in events.
     */
    public int maxCapacity()
    {
        return maxCapacity;
    }

    /**
     * How long history is worth keeping: a full window whose oldest event is younger grows, one
     * whose newest quarter is older shrinks. Any thread; no allocation.
     *
     * @return nanoseconds, positive.
     */
    public long freshnessNanos()
    {
        return freshnessNanos;
    }

    /**
     * The largest key + value + previous value one event may carry. Any thread; no allocation.
     *
     * @return bytes, positive.
     */
    public int maxEventBytes()
    {
        return maxEventBytes;
    }

    /**
     * Expected bytes per event, used only to size the data ring. Any thread; no allocation.
     *
     * @return bytes, positive.
     */
    public int dataBytesPerEvent()
    {
        return dataBytesPerEvent;
    }

    /**
     * Size of the data ring for a window of {@code eventCapacity} events: the next power of two
     * of {@code max(eventCapacity * dataBytesPerEvent, 4 * maxEventBytes)}. Any thread; no
     * allocation.
     *
     * @param eventCapacity a capacity in events.
     * @return the data ring size in bytes, a power of two.
     */
    public int dataCapacityFor(final int eventCapacity)
    {
        final long wanted = Math.max((long)eventCapacity * dataBytesPerEvent, 4L * maxEventBytes);
        return BitUtil.findNextPositivePowerOfTwo((int)wanted);
    }

    /**
     * Describes the settings. Any thread; allocates the string.
     *
     * @return a readable description.
     */
    @Override
    public String toString()
    {
        return "WindowConfig{minCapacity=" + minCapacity + ", maxCapacity=" + maxCapacity +
            ", freshnessNanos=" + freshnessNanos + ", maxEventBytes=" + maxEventBytes +
            ", dataBytesPerEvent=" + dataBytesPerEvent + '}';
    }

    /**
     * Mutable builder of {@link WindowConfig}; starts with the defaults. Use from one thread.
     */
    public static final class Builder
    {
        private int minCapacity = DEFAULT_MIN_CAPACITY;
        private int maxCapacity = DEFAULT_MAX_CAPACITY;
        private long freshnessNanos = DEFAULT_FRESHNESS_NANOS;
        private int maxEventBytes = DEFAULT_MAX_EVENT_BYTES;
        private int dataBytesPerEvent = DEFAULT_DATA_BYTES_PER_EVENT;

        private Builder()
        {
        }

        /**
         * Sets the lower capacity bound (a power of two, at least {@link #MIN_CAPACITY_FLOOR}).
         *
         * @param minCapacity events.
         * @return this builder.
         */
        public Builder minCapacity(final int minCapacity)
        {
            this.minCapacity = minCapacity;
            return this;
        }

        /**
         * Sets the upper capacity bound (a power of two, at most {@link #MAX_CAPACITY_CEILING}).
         *
         * @param maxCapacity events.
         * @return this builder.
         */
        public Builder maxCapacity(final int maxCapacity)
        {
            this.maxCapacity = maxCapacity;
            return this;
        }

        /**
         * Sets the freshness duration.
         *
         * @param freshnessNanos nanoseconds, positive.
         * @return this builder.
         */
        public Builder freshnessNanos(final long freshnessNanos)
        {
            this.freshnessNanos = freshnessNanos;
            return this;
        }

        /**
         * Sets the largest key + value + previous value of one event.
         *
         * @param maxEventBytes bytes, positive.
         * @return this builder.
         */
        public Builder maxEventBytes(final int maxEventBytes)
        {
            this.maxEventBytes = maxEventBytes;
            return this;
        }

        /**
         * Sets the expected bytes per event used to size the data ring.
         *
         * @param dataBytesPerEvent bytes, positive.
         * @return this builder.
         */
        public Builder dataBytesPerEvent(final int dataBytesPerEvent)
        {
            this.dataBytesPerEvent = dataBytesPerEvent;
            return this;
        }

        /**
         * Validates the settings and builds the config. Allocates it.
         *
         * @return an immutable config.
         * @throws InvalidWindowConfigException if a setting is out of range.
         */
        public WindowConfig build()
        {
            requirePowerOfTwo("minCapacity", minCapacity);
            requirePowerOfTwo("maxCapacity", maxCapacity);
            if (minCapacity < MIN_CAPACITY_FLOOR)
            {
                throw new InvalidWindowConfigException(
                    "minCapacity " + minCapacity + " is below " + MIN_CAPACITY_FLOOR);
            }
            if (maxCapacity > MAX_CAPACITY_CEILING)
            {
                throw new InvalidWindowConfigException(
                    "maxCapacity " + maxCapacity + " is above " + MAX_CAPACITY_CEILING);
            }
            if (maxCapacity < minCapacity)
            {
                throw new InvalidWindowConfigException(
                    "maxCapacity " + maxCapacity + " is below minCapacity " + minCapacity);
            }
            requirePositive("freshnessNanos", freshnessNanos);
            requirePositive("maxEventBytes", maxEventBytes);
            requirePositive("dataBytesPerEvent", dataBytesPerEvent);
            final long largestData = Math.max((long)maxCapacity * dataBytesPerEvent, 4L * maxEventBytes);
            if (largestData > MAX_DATA_CAPACITY)
            {
                throw new InvalidWindowConfigException("data ring of " + largestData +
                    " bytes at maxCapacity exceeds " + MAX_DATA_CAPACITY);
            }
            return new WindowConfig(this);
        }

        private static void requirePowerOfTwo(final String name, final int value)
        {
            if (!BitUtil.isPowerOfTwo(value))
            {
                throw new InvalidWindowConfigException(name + " must be a power of two: " + value);
            }
        }

        private static void requirePositive(final String name, final long value)
        {
            if (value <= 0)
            {
                throw new InvalidWindowConfigException(name + " must be positive: " + value);
            }
        }
    }
}
