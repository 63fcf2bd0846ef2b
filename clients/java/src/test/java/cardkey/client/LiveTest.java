package cardkey.client;

public final class LiveTest {}
