-- A run slot of a user who no longer exists frees nothing and counts for no one: drop any before the key.
DELETE FROM "RunSlot" WHERE "userId" NOT IN (SELECT "id" FROM "User");

-- AddForeignKey
ALTER TABLE "RunSlot" ADD CONSTRAINT "RunSlot_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;
