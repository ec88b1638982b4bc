package sockbench.client.sweep;

/**
 * What the processes holding connections look like at one instant of an idle hold: added up over
 * this process or every agent.
 *
 * @param heartbeats     server heartbeats (SockJS h frames, websocket pings) received so far (a running count; the hold takes the difference)
 * @param open           connections of the level still open
 * @param clientRssBytes resident set size of the client processes, bytes (a coordinator's own plus
 *                       every agent's); null when one could not be read
 */
public record IdleSample(long heartbeats, int open, Long clientRssBytes) {
}
