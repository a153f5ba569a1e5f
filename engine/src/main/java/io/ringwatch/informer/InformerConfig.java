package io.ringwatch.informer;

import io.ringwatch.engine.errors.InvalidRequestException;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * How a {@link SharedInformer} is sized and behaves. Immutable; build one with {@link #builder()}.
 * Each builder setter validates its argument and throws {@link InvalidRequestException} for a bad
 * one.
 */
public final class InformerConfig
{
    /** The informer's name by default: its threads are then named {@code <engine name>-informer}. */
    public static final String DEFAULT_NAME = "informer";
    private static final Logger LOG = LoggerFactory.getLogger("io.ringwatch.informer");

    private final String name;
    private final int handlerBufferCapacity;
    private final int pollBatchSize;
    private final Supplier<IdleStrategy> idleStrategy;
    private final Duration relistBackoffMin;
    private final Duration relistBackoffMax;
    private final Duration mutationCheckInterval;
    private final InformerErrorHandler errorHandler;
    private final Duration stopTimeout;

    private InformerConfig(final Builder b)
    {
        name = b.name;
        handlerBufferCapacity = b.handlerBufferCapacity;
        pollBatchSize = b.pollBatchSize;
        idleStrategy = b.idleStrategy;
        relistBackoffMin = b.relistBackoffMin;
        relistBackoffMax = b.relistBackoffMax;
        mutationCheckInterval = b.mutationCheckInterval;
        errorHandler = b.errorHandler;
        stopTimeout = b.stopTimeout;
    }

    /**
     * @return a builder holding the defaults.
     */
    public static Builder builder()
    {
        return new Builder();
    }

    /**
     * @return the configuration with every default.
     */
    public static InformerConfig defaults()
    {
        return builder().build();
    }

    /** @return the informer's name, used in thread names and reports. */
    public String name()
    {
        return name;
    }

    /** @return the notifications each handler may have queued before its changes are coalesced. */
    public int handlerBufferCapacity()
    {
        return handlerBufferCapacity;
    }

    /** @return the most watch events the informer applies per poll. */
    public int pollBatchSize()
    {
        return pollBatchSize;
    }

    /** @return makes the informer thread's idle strategy. */
    public Supplier<IdleStrategy> idleStrategy()
    {
        return idleStrategy;
    }

    /** @return the first pause before listing again after a failed list or a watch that ended unused. */
    public Duration relistBackoffMin()
    {
        return relistBackoffMin;
    }

    /** @return the longest such pause. */
    public Duration relistBackoffMax()
    {
        return relistBackoffMax;
    }

    /** @return true when cached objects are checked for mutation (a debug mode). */
    public boolean detectsMutations()
    {
        return mutationCheckInterval != null;
    }

    /** @return how often the whole cache is checked for mutation, or null when detection is off. */
    public Duration mutationCheckInterval()
    {
        return mutationCheckInterval;
    }

    /** @return where failures are reported. */
    public InformerErrorHandler errorHandler()
    {
        return errorHandler;
    }

    /** @return how long {@code stop()} waits for each of the informer's threads. */
    public Duration stopTimeout()
    {
        return stopTimeout;
    }

    /**
     * Builds an {@link InformerConfig}. Not thread-safe.
     */
    public static final class Builder
    {
        private String name = DEFAULT_NAME;
        private int handlerBufferCapacity = 1024;
        private int pollBatchSize = 256;
        private Supplier<IdleStrategy> idleStrategy = () -> new BackoffIdleStrategy(10, 5, 1_000, 1_000_000);
        private Duration relistBackoffMin = Duration.ofMillis(1);
        private Duration relistBackoffMax = Duration.ofMillis(200);
        private Duration mutationCheckInterval;
        private InformerErrorHandler errorHandler = error -> LOG.warn("informer error: {}", error.getMessage(), error);
        private Duration stopTimeout = Duration.ofSeconds(5);

        private Builder()
        {
        }

        /**
         * @param name the informer's name; not blank.
         * @return this builder.
         */
        public Builder name(final String name)
        {
            if (name == null || name.isBlank())
            {
                throw new InvalidRequestException("informer name must not be blank");
            }
            this.name = name;
            return this;
        }

        /**
         * @param capacity notifications queued per handler before coalescing; a power of two,
         *                 2 to 2^20.
         * @return this builder.
         */
        public Builder handlerBufferCapacity(final int capacity)
        {
            if (capacity < 2 || capacity > 1 << 20 || Integer.bitCount(capacity) != 1)
            {
                throw new InvalidRequestException("handler buffer capacity must be a power of two in [2, 2^20]: " + capacity);
            }
            handlerBufferCapacity = capacity;
            return this;
        }

        /**
         * @param events most watch events applied per poll, 1 to 65536.
         * @return this builder.
         */
        public Builder pollBatchSize(final int events)
        {
            if (events < 1 || events > 65536)
            {
                throw new InvalidRequestException("poll batch size must be in [1, 65536]: " + events);
            }
            pollBatchSize = events;
            return this;
        }

        /**
         * @param factory makes the informer thread's Agrona idle strategy (used while its watch
         *                has nothing).
         * @return this builder.
         */
        public Builder idleStrategy(final Supplier<IdleStrategy> factory)
        {
            if (factory == null)
            {
                throw new InvalidRequestException("idle strategy must not be null");
            }
            idleStrategy = factory;
            return this;
        }

        /**
         * @param min first pause before listing again; positive.
         * @param max longest pause; at least {@code min}.
         * @return this builder.
         */
        public Builder relistBackoff(final Duration min, final Duration max)
        {
            if (min == null || max == null || min.isNegative() || min.isZero() || max.compareTo(min) < 0)
            {
                throw new InvalidRequestException("relist backoff must be positive with max >= min: " + min + ", " + max);
            }
            relistBackoffMin = min;
            relistBackoffMax = max;
            return this;
        }

        /**
         * Turns on the mutation detector (a debug mode, like client-go's
         * KUBE_CACHE_MUTATION_DETECTOR): every cached object's value gets a checksum, checked when
         * the object leaves the cache, over the whole cache every {@code checkInterval}, and on
         * demand with {@link SharedInformer#checkForMutations()}. Costs a CRC per object cached.
         *
         * @param checkInterval how often to check the whole cache; positive.
         * @return this builder.
         */
        public Builder detectMutations(final Duration checkInterval)
        {
            mutationCheckInterval = positive("mutation check interval", checkInterval);
            return this;
        }

        /**
         * @param handler receives failures; by default they are logged through
         *                SLF4J, logger "io.ringwatch.informer".
         * @return this builder.
         */
        public Builder errorHandler(final InformerErrorHandler handler)
        {
            if (handler == null)
            {
                throw new InvalidRequestException("error handler must not be null");
            }
            errorHandler = handler;
            return this;
        }

        /**
         * @param timeout how long {@code stop()} waits for each thread; positive.
         * @return this builder.
         */
        public Builder stopTimeout(final Duration timeout)
        {
            stopTimeout = positive("stop timeout", timeout);
            return this;
        }

        /**
         * @return the configuration.
         */
        public InformerConfig build()
        {
            return new InformerConfig(this);
        }

        private static Duration positive(final String what, final Duration d)
        {
            if (d == null || d.isNegative() || d.isZero())
            {
                throw new InvalidRequestException(what + " must be positive: " + d);
            }
            return d;
        }
    }
}
