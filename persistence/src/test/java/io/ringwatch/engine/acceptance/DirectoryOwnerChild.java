package io.ringwatch.engine.acceptance;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import io.ringwatch.engine.RingWatch;
import io.ringwatch.engine.config.RingWatchConfig;
import io.ringwatch.persistence.LogConfig;

/**
 * The second process of {@link TwoOwnersTest}. {@code try DIR}: opens a SYNC engine on DIR and
 * prints {@code opened} (then writes one put, printing {@code ack REV}) or
 * {@code refused CLASS MESSAGE}. {@code hold DIR N}: opens, acknowledges N puts
 * ({@code ack REV} each), prints {@code ready}, waits for a line on stdin, acknowledges N more,
 * closes and prints {@code closed}.
 */
public final class DirectoryOwnerChild
{
    private DirectoryOwnerChild()
    {
    }

    /**
     * @param args the mode, the directory, and for hold the number of puts.
     * @throws Exception on any failure, which ends the child with a nonzero status.
     */
    public static void main(final String[] args) throws Exception
    {
        final Path dir = Path.of(args[1]);
        final RingWatchConfig config = RingWatchConfig.builder()
            .persistence(LogConfig.builder(dir).durability(LogConfig.Durability.SYNC).build())
            .snapshotEveryRevisions(0).build();
        if ("try".equals(args[0]))
        {
            final RingWatch engine;
            try
            {
                engine = RingWatch.open(config);
            }
            catch (final Throwable refused)
            {
                System.out.println("refused " + refused.getClass().getName() + " " + String.valueOf(refused.getMessage())
                    .replace('\n', ' '));
                System.out.flush();
                return;
            }
            System.out.println("opened");
            System.out.println("ack " + engine.put("/child/try", "written by the second process").revision());
            System.out.flush();
            engine.close();
            return;
        }
        final int puts = Integer.parseInt(args[2]);
        final RingWatch engine = RingWatch.open(config);
        for (int i = 0; i < puts; i++)
        {
            System.out.println("ack " + engine.put("/child/" + i, "c" + i).revision());
        }
        System.out.println("ready");
        System.out.flush();
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        for (int i = puts; i < 2 * puts; i++)
        {
            System.out.println("ack " + engine.put("/child/" + i, "c" + i).revision());
        }
        engine.close();
        System.out.println("closed");
        System.out.flush();
    }
}
