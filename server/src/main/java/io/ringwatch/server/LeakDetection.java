package io.ringwatch.server;

import io.grpc.netty.shaded.io.netty.util.ResourceLeakDetector;

/**
 * The standalone server's default for Netty's buffer leak detector: off, unless the operator names
 * a level with {@value #LEVEL_PROPERTY} (grpc-netty-shaded's name for Netty's
 * {@code io.netty.leakDetection.level}). Netty's default samples one buffer in 128 and records a
 * stack trace for it and at its release: 3% of the server's CPU per put under saturating puts, for
 * a check that only finds bugs in Netty or gRPC. An embedding application keeps whatever it set:
 * only {@link ServerMain} calls this. Not thread-safe (call it before the server starts).
 */
final class LeakDetection
{
    /** The system property that names the level; when set, its level stays. */
    static final String LEVEL_PROPERTY = "io.grpc.netty.shaded.io.netty.leakDetection.level";

    private LeakDetection()
    {
    }

    /**
     * Turns the detector off unless {@value #LEVEL_PROPERTY} is set.
     *
     * @return the level in force afterwards.
     */
    static ResourceLeakDetector.Level applyDefault()
    {
        if (System.getProperty(LEVEL_PROPERTY) == null)
        {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        return ResourceLeakDetector.getLevel();
    }
}
