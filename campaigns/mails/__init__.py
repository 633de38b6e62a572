"""E-mail of notices: a person's choice per campaign (choices), the addresses they confirmed
(addresses), the mail-outbox that gathers notices into mails (outbox), composing and sending one
mail once (sending), and stopping them without signing in (unsubscribe). docs/architecture.md,
"E-mail of notices"."""
