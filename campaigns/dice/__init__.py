"""Dice: expressions and secure rolling, the pool a fold draws from, rules tables and rolling on them."""
