"""Events and states become Messages; a Catalogue turns Messages into sentences."""
