"""Who is signed in, who sits where (seats), who may see what (visibility) and who may do what (permissions)."""
