package io.ringwatch.server;

import io.grpc.netty.shaded.io.netty.util.ResourceLeakDetector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The standalone server turns Netty's leak detector off unless the operator names a level; the
 * level and the property in force before each test are put back after it.
 */
class LeakDetectionTest
{
    private ResourceLeakDetector.Level level;
    private String property;

    @BeforeEach
    void remember()
    {
        level = ResourceLeakDetector.getLevel();
        property = System.getProperty(LeakDetection.LEVEL_PROPERTY);
    }

    @AfterEach
    void restore()
    {
        ResourceLeakDetector.setLevel(level);
        if (property == null)
        {
            System.clearProperty(LeakDetection.LEVEL_PROPERTY);
        }
        else
        {
            System.setProperty(LeakDetection.LEVEL_PROPERTY, property);
        }
    }

    @Test
    void withNoLevelGivenTheDetectorIsOff()
    {
        System.clearProperty(LeakDetection.LEVEL_PROPERTY);
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.SIMPLE);

        assertEquals(ResourceLeakDetector.Level.DISABLED, LeakDetection.applyDefault());
        assertEquals(ResourceLeakDetector.Level.DISABLED, ResourceLeakDetector.getLevel());
    }

    @Test
    void aLevelTheOperatorGaveStays()
    {
        System.setProperty(LeakDetection.LEVEL_PROPERTY, "paranoid");
        ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);

        assertEquals(ResourceLeakDetector.Level.PARANOID, LeakDetection.applyDefault());
    }
}
