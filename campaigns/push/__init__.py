"""Web Push of notices: a person's devices (subscriptions), the push outbox and its sending."""
