package cardkey.client;

import static cardkey.client.Assert.check;
import static cardkey.client.Assert.equal;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** The heartbeat loop on its ScheduledExecutorService: beats, errors, the session's end, a clean stop. */
public final class HeartbeatTest {
  static final String BEAT = "{\"code\":0,\"success\":true,\"msg\":\"Heartbeat accepted\",\"data\":{\"card_id\":1042,\"session_expires_at\":\"2030-01-01 00:20:00\",\"server_time\":1}}";
  static final String ENDED = "{\"code\":30101,\"success\":false,\"msg\":\"The session is invalid\",\"data\":{\"ended_by\":\"forced_offline\",\"ended_at\":\"2030-01-01 00:05:00\"}}";

  /** Records what a loop tells. */
  static class Recorder implements HeartbeatListener {
    final List<Result> beats = new CopyOnWriteArrayList<>();
    final List<Result> errors = new CopyOnWriteArrayList<>();
    final List<Result> ended = new CopyOnWriteArrayList<>();

    @Override
    public void onBeat(Result r) {
      beats.add(r);
    }

    @Override
    public void onError(Result r) {
      errors.add(r);
    }

    @Override
    public void onSessionEnded(Result r) {
      ended.add(r);
    }
  }

  private static Client loggedIn(FakeService service) {
    Client client = service.client(true);
    Assert.succeeded(client.cardLogin("CK-1", "PC-1"), "login");
    return client;
  }

  @Test
  public void beatsRenewThenTheSessionsEndIsToldOnceWithEndedBy() throws Exception {
    FakeService service = new FakeService().answer(200, ClientTest.LOGIN_OK).answer(200, BEAT).answer(200, BEAT).answer(401, ENDED);
    Client client = loggedIn(service);
    Recorder recorder = new Recorder();
    HeartbeatLoop loop = client.startHeartbeat(Duration.ofMillis(20), recorder);
    Optional<Result> end = loop.finished().get(5, TimeUnit.SECONDS);
    check(end.isPresent(), "ended by an answer");
    equal("forced_offline", end.get().endedBy(), "ended_by");
    equal(2, recorder.beats.size(), "two renewals");
    equal(1, recorder.ended.size(), "told once");
    equal("2030-01-01 00:05:00", recorder.ended.get(0).endedAt(), "ended_at");
    check(recorder.errors.isEmpty(), "no errors");
    check(!loop.isRunning(), "stopped");
    check(client.session().isEmpty(), "the session is cleared");
    check(loop.await(Duration.ofSeconds(2)), "its thread has gone");
    int sent = service.requests.size();
    Thread.sleep(100);
    equal(sent, service.requests.size(), "no beat after the end");
  }

  @Test
  public void aRenewalMovesTheSessionsExpiry() {
    Client client = loggedIn(new FakeService().answer(200, ClientTest.LOGIN_OK).answer(200, BEAT));
    Assert.succeeded(client.cardHeartbeat(), "beat");
    equal("2030-01-01 00:20:00", client.session().orElseThrow().expiresAt(), "renewed");
  }

  @Test
  public void failuresGoToOnErrorAndTheLoopKeepsItsRhythmEvenIfTheListenerThrows() throws Exception {
    FakeService service = new FakeService().answer(200, ClientTest.LOGIN_OK).down().down().down().answer(200, BEAT);
    Client client = loggedIn(service);
    Recorder recorder = new Recorder() {
      @Override
      public void onError(Result r) {
        super.onError(r);
        throw new IllegalStateException("a faulty listener");
      }
    };
    HeartbeatLoop loop = client.startHeartbeat(Duration.ofMillis(10), recorder);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (recorder.beats.isEmpty() && System.nanoTime() < deadline) Thread.sleep(5);
    loop.stop();
    equal(1, recorder.errors.size(), "the network failure (after its retries) told once");
    equal(ErrorCodes.NETWORK_ERROR, recorder.errors.get(0).code(), "network");
    check(!recorder.beats.isEmpty(), "the loop went on after a listener threw");
    check(client.session().isPresent(), "a network failure keeps the session");
  }

  @Test
  public void stopIsCleanAndTellsNothingMore() throws Exception {
    FakeService service = new FakeService().answer(200, ClientTest.LOGIN_OK).answer(200, BEAT);
    Client client = loggedIn(service);
    Recorder recorder = new Recorder();
    HeartbeatLoop loop = client.startHeartbeat(Duration.ofMillis(10), recorder);
    while (recorder.beats.size() < 2) Thread.sleep(5);
    loop.stop();
    loop.stop(); // twice is fine
    check(loop.await(Duration.ofSeconds(2)), "the thread has gone");
    equal(Optional.empty(), loop.finished().get(1, TimeUnit.SECONDS), "stopped, not ended");
    int told = recorder.beats.size();
    Thread.sleep(60);
    equal(told, recorder.beats.size(), "nothing after stop");
    check(client.session().isPresent(), "stopping the loop keeps the session");
  }

  @Test
  public void clearSessionCloseAndANewLoopStopThePreviousOne() throws Exception {
    FakeService service = new FakeService().answer(200, ClientTest.LOGIN_OK).answer(200, BEAT);
    Client client = loggedIn(service);
    HeartbeatLoop first = client.startHeartbeat(Duration.ofMillis(10), null);
    HeartbeatLoop second = client.startHeartbeat(Duration.ofMillis(10), null);
    check(!first.isRunning() && second.isRunning(), "one loop per client");
    client.clearSession();
    check(!second.isRunning() && second.await(Duration.ofSeconds(2)), "clearSession stops the loop");
    Client other = loggedIn(new FakeService().answer(200, ClientTest.LOGIN_OK).answer(200, BEAT));
    try (other) {
      HeartbeatLoop loop = other.startHeartbeat(null, null);
      check(loop.isRunning(), "the login's interval (60 s)");
      other.close();
      check(!loop.isRunning(), "close stops the loop");
    }
  }

  @Test
  public void aDirectHeartbeatThatMeetsTheEndEndsTheLoop() throws Exception {
    FakeService service = new FakeService().answer(200, ClientTest.LOGIN_OK).answer(401, ENDED);
    Client client = loggedIn(service);
    Recorder recorder = new Recorder();
    HeartbeatLoop loop = client.startHeartbeat(Duration.ofHours(1), recorder);
    Result direct = client.cardHeartbeat();
    Assert.refused(direct, ErrorCodes.SESSION_INVALID, "ended");
    check(!loop.isRunning(), "the loop ended");
    equal(1, recorder.ended.size(), "told once");
    Assert.refused(client.cardHeartbeat(), ErrorCodes.NO_SESSION, "the session is gone");
  }
}
