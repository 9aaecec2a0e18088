package io.railgun.node.cli.client.send;

import io.railgun.client.RailgunException;
import io.railgun.node.cli.client.ClientCommand;
import io.railgun.node.cli.client.ExitCode;
import io.railgun.node.cli.client.NodeTarget;

import java.io.PrintWriter;

/**
 * How {@code send} reports the failure that stopped it: the line of the offending row and the
 * node's code and message (or why the input or the node failed), then what was sent before it and
 * how to go on; and the exit code: {@link ExitCode#PARTIAL} when events were sent, else that of the
 * failure.
 */
final class SendFailures {

    private SendFailures() {
    }

    static int report(BatchSender.Failure failure, SendTally tally, long elapsedNs, NodeTarget target, String name,
                      String input, PrintWriter err) {
        int exitCode;
        if (failure.input() != null) {
            err.println(name + ": line " + failure.input().line() + " of " + input + ": " + failure.input().getMessage());
            exitCode = ExitCode.USAGE;
        } else {
            RailgunException e = failure.node();
            InputRow row = BatchSender.offendingRow(e, failure.batch());
            String where = row != null ? "line " + row.line() + " of " + input
                    : "the batch of lines " + failure.batch().getFirst().line() + "-" + failure.batch().getLast().line()
                    + " of " + input;
            if (e.status() == 0) {
                err.println(name + ": " + where + ": " + ClientCommand.describe(e, target));
            } else {
                err.println(name + ": " + where + ": " + e.code() + " (HTTP " + e.status() + "): "
                        + BatchSender.withoutIndex(e.getMessage())
                        + (e.status() == 413 ? "; send smaller batches with --batch-size N" : ""));
            }
            exitCode = ClientCommand.exitCode(e);
        }
        if (tally.sent() == 0) {
            err.println(name + ": nothing was sent");
            return exitCode;
        }
        err.println(name + ": stopped after " + tally.summary(elapsedNs) + ". Fix the input or the node and send it"
                + " again: events already counted answer duplicate and count once");
        return ExitCode.PARTIAL;
    }
}
